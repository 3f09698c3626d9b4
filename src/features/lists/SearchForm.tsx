import { Form, useSearchParams } from 'react-router';
import { t, type UiKey } from '../../i18n/messages';

/** The lists' keyword search: a GET form that puts `?keyword=` in the address (the loader reads it). */
export function SearchForm({ inputId, labelKey }: { inputId: string; labelKey: UiKey }) {
  const [params] = useSearchParams();
  return (
    <Form role="search" method="get" className="search">
      <label htmlFor={inputId} className="ui-field__label">
        {t(labelKey)}
      </label>
      <div className="coupon__row">
        <input id={inputId} name="keyword" type="search" className="ui-input" defaultValue={params.get('keyword') ?? ''} />
        <button type="submit" className="ui-btn ui-btn--secondary">
          {t('search')}
        </button>
      </div>
    </Form>
  );
}
