/**
 * What a document says, frozen at issue (documents.payload): the PDF and the e-Tax data are
 * rendered from this alone, so a later change of the site settings, the buyer's profile or the
 * order never changes an issued document.
 */
import type { BuyerParty, CreditAmounts, DocumentAmounts, DocumentKind, SellerDetails } from '../../domain/documents';

export interface DocumentPayload {
  version: 1;
  kind: DocumentKind;
  number: string;
  /** ISO instant of issue. */
  issued_at: string;
  /** The document's date in Thailand, YYYY-MM-DD. */
  date: string;
  order: { id: number; created_at: string; paid_at: string | null; payment_method: string | null };
  seller: SellerDetails;
  buyer: BuyerParty;
  amounts: DocumentAmounts;
  /** A credit note: the document it reduces and by how much. */
  credit: {
    document_id: number;
    document_number: string;
    document_kind: DocumentKind;
    document_date: string;
    reason: string;
    amounts: CreditAmounts;
  } | null;
  /** The document this one replaces (a new invoice after a correcting credit note). */
  replaces: { document_id: number; document_number: string } | null;
}
