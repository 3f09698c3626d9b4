import { t } from '../../i18n/messages';

/** /forgotpass: where the login panels' "forgot password" link goes. (/cart itself is the cart page: src/features/cart/CartPage.) */
export function ForgotPasswordPage() {
  return (
    <main className="page page--narrow" data-testid="forgotpass-page">
      <h1>{t('forgotPassTitle')}</h1>
      <p>{t('forgotPassBody')}</p>
    </main>
  );
}
