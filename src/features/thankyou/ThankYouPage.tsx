import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { flowPersistence } from '../../api/effects';
import { t } from '../../i18n/messages';

/** /thankyou?orderId={order token}: the purchase is done; the saved checkout flow is forgotten. */
export function ThankYouPage() {
  const [params] = useSearchParams();
  const token = params.get('orderId');
  useEffect(() => {
    flowPersistence.actions.clearPersistedSnapshot();
  }, []);
  return (
    <main className="page page--narrow" data-testid="thankyou-page">
      <h1>{t('thankYouTitle')}</h1>
      <p>{t('thankYouBody')}</p>
      {token ? (
        <p>
          {t('orderNumber')}: <strong data-testid="order-token">{token}</strong>
        </p>
      ) : null}
      <p>
        <Link className="ui-btn ui-btn--primary" to="/myaccount/student/order">
          {t('toMyOrders')}
        </Link>
      </p>
    </main>
  );
}

export default ThankYouPage;
