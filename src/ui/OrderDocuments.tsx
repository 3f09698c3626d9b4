import type { components } from '../../generated/api';
import { getLocale, t, type UiKey } from '../i18n/messages';

type OrderDocument = components['schemas']['OrderDocument'];

/** Links to an order's documents as PDF (receipt, tax invoice, credit note), in the page's language. */
export function OrderDocuments({ documents }: { documents: readonly OrderDocument[] }) {
  if (documents.length === 0) return null;
  const lang = getLocale() === 'en' ? '?lang=en' : '';
  return (
    <nav className="order-documents" aria-label={t('documentsTitle')} data-testid="order-documents">
      <ul>
        {documents.map((d) => (
          <li key={d.id}>
            <a className="tap-target" href={`${d.pdf_url}${lang}`} data-testid="order-document" data-kind={d.kind} download>
              {t('documentLink', { kind: t(`docKind_${d.kind}` as UiKey), number: d.number })}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
