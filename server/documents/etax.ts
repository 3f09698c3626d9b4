/**
 * The e-Tax Invoice & e-Receipt data of a document: XML in the shape of ETDA's standard
 * (ขมธอ. 3-2560, "ER3-2560", schema version 2.1: TaxInvoice_CrossIndustryInvoice,
 * Receipt_CrossIndustryInvoice and DebitCreditNote_CrossIndustryInvoice over UN/CEFACT's Cross
 * Industry Invoice). Built from the frozen payload only.
 *
 * Validated against ETDA's published XSD set 2.1 (tests/fixtures/etda-e-tax-2p1,
 * tests/server/documents-schema.test.ts); type codes from its ThaiDocumentNameCode_Invoice_1p0.xsd.
 * The data is also kept as the plain `ETaxData` structure.
 */
import { toDecimalString } from '../../domain/money';
import type { DocumentKind } from '../../domain/documents';
import type { DocumentPayload } from './payload';

/** Per kind: root element, namespaces, ETDA document type code and name. */
export const ETAX_KIND: Readonly<Record<DocumentKind, { root: string; typeCode: string; name: string }>> = {
  tax_invoice: { root: 'TaxInvoice_CrossIndustryInvoice', typeCode: '388', name: 'ใบกำกับภาษี' },
  receipt: { root: 'Receipt_CrossIndustryInvoice', typeCode: 'T01', name: 'ใบเสร็จรับเงิน' },
  credit_note: { root: 'DebitCreditNote_CrossIndustryInvoice', typeCode: '81', name: 'ใบลดหนี้' },
};

export const ETAX_GUIDELINE_ID = 'ER3-2560';

/**
 * A credit note's PurposeCode (required by DebitCreditNote_…_2p1.xsd; ETDA's list
 * Thai_MessageFunctionCode_1p0.xsd: CDNG01…05 / CDNG99 for goods, CDNS01…04 / CDNS99 for
 * services). The list file carries codes only, no names; 99 closes each group, read here as "other
 * reason", with the reason itself in Purpose.
 */
export const CREDIT_NOTE_PURPOSE_CODE = 'CDNS99';
export const ETAX_FILE_NAME = 'ETDA-invoice.xml';

/** The e-Tax data as a plain structure (amounts in minor units). */
export interface ETaxData {
  kind: DocumentKind;
  root: string;
  namespaces: { rsm: string; ram: string };
  document: { id: string; name: string; type_code: string; issue_date_time: string; creation_date_time: string; purpose: string | null; purpose_code: string | null };
  seller: { name: string; tax_id: string; branch: string; address: string };
  buyer: { name: string; tax_id: string | null; branch: string | null; address: string | null; email: string | null };
  referenced_document: { id: string; issue_date: string; type_code: string } | null;
  currency: 'THB' | 'USD';
  tax: { type_code: 'VAT'; rate: number; basis: number; amount: number };
  summation: { line_total: number; allowance_total: number; charge_total: number; tax_basis_total: number; tax_total: number; grand_total: number; original_information_amount?: number; difference_information_amount?: number };
  lines: { id: number; name: string; unit_price: number; qty: number; basis: number; tax: number; net_including_tax: number }[];
}

export function etaxData(p: DocumentPayload): ETaxData {
  const k = ETAX_KIND[p.kind];
  const a = p.amounts;
  const credit = p.credit;
  const ns = { rsm: `urn:etda:uncefact:data:standard:${k.root}:2`, ram: `urn:etda:uncefact:data:standard:${k.root.replace('CrossIndustryInvoice', 'ReusableAggregateBusinessInformationEntity')}:2` };
  const issue = `${p.date}T00:00:00`;
  const base = {
    kind: p.kind,
    root: k.root,
    namespaces: ns,
    document: { id: p.number, name: k.name, type_code: k.typeCode, issue_date_time: issue, creation_date_time: p.issued_at.replace('Z', ''), purpose: credit ? credit.reason : null, purpose_code: credit ? CREDIT_NOTE_PURPOSE_CODE : null },
    seller: { name: p.seller.name, tax_id: p.seller.tax_id, branch: p.seller.branch, address: p.seller.address },
    buyer: { name: p.buyer.name, tax_id: p.buyer.tax_id, branch: p.buyer.branch ?? (p.buyer.person_type === 'juristic_person' ? null : '00000'), address: p.buyer.address, email: p.buyer.email },
    currency: a.currency,
  };
  if (credit) {
    const c = credit.amounts;
    return {
      ...base,
      referenced_document: { id: credit.document_number, issue_date: `${credit.document_date}T00:00:00`, type_code: ETAX_KIND[credit.document_kind].typeCode },
      tax: { type_code: 'VAT', rate: a.vat_percent, basis: c.credited_before_vat, amount: c.credited_vat },
      // ETDA's credit note: the original value, the correct value (LineTotalAmount) and their
      // difference, before VAT; then the VAT and the total of the difference.
      summation: {
        original_information_amount: a.before_vat + a.shipping,
        line_total: a.before_vat + a.shipping - (c.credited_before_vat + c.credited_shipping),
        difference_information_amount: c.credited_before_vat + c.credited_shipping,
        allowance_total: 0, charge_total: c.credited_shipping, tax_basis_total: c.credited_before_vat + c.credited_shipping, tax_total: c.credited_vat, grand_total: c.credited,
      },
      lines: [{ id: 1, name: `ลดหนี้ตาม ${credit.document_number}`, unit_price: c.credited_before_vat, qty: 1, basis: c.credited_before_vat, tax: c.credited_vat, net_including_tax: c.credited_base }],
    };
  }
  return {
    ...base,
    referenced_document: null,
    tax: { type_code: 'VAT', rate: a.vat_percent, basis: a.before_vat, amount: a.vat },
    summation: { line_total: a.before_vat, allowance_total: 0, charge_total: a.shipping, tax_basis_total: a.before_vat + a.shipping, tax_total: a.vat, grand_total: a.grand_total },
    lines: a.lines.map((l) => ({ id: l.no, name: l.name, unit_price: l.unit_price, qty: l.qty, basis: l.before_vat, tax: l.vat, net_including_tax: l.amount })),
  };
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const money = (n: number) => toDecimalString(n);

/** ETDA's tax registration id: 13-digit taxpayer id + 5-digit branch (e.g. 010555601234100000). */
function txid(taxId: string, branch: string | null): string {
  return `${taxId}${branch ?? '00000'}`;
}

export function etaxXml(d: ETaxData): string {
  const el = (name: string, value: string | number | null | undefined, attrs = ''): string => (value === null || value === undefined || value === '' ? '' : `<ram:${name}${attrs}>${esc(String(value))}</ram:${name}>`);
  const cur = ` currencyID="${d.currency}"`;
  const party = (tag: string, p: { name: string; tax_id: string | null; branch: string | null; address: string | null; email?: string | null }) =>
    `<ram:${tag}>${el('Name', p.name)}${p.tax_id ? `<ram:SpecifiedTaxRegistration>${el('ID', txid(p.tax_id, p.branch), ' schemeID="TXID"')}</ram:SpecifiedTaxRegistration>` : ''}${
      p.email ? `<ram:DefinedTradeContact><ram:EmailURIUniversalCommunication>${el('URIID', p.email)}</ram:EmailURIUniversalCommunication></ram:DefinedTradeContact>` : ''
    }<ram:PostalTradeAddress>${el('LineOne', p.address ?? '-')}<ram:CountryID schemeID="3166-1 alpha-2">TH</ram:CountryID></ram:PostalTradeAddress></ram:${tag}>`;
  const s = d.summation;
  const lines = d.lines
    .map(
      (l) =>
        `<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument>${el('LineID', l.id)}</ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct>${el('Name', l.name)}</ram:SpecifiedTradeProduct><ram:SpecifiedLineTradeAgreement><ram:GrossPriceProductTradePrice>${el('ChargeAmount', money(l.unit_price), cur)}</ram:GrossPriceProductTradePrice></ram:SpecifiedLineTradeAgreement><ram:SpecifiedLineTradeDelivery>${el('BilledQuantity', l.qty, ' unitCode="C62"')}</ram:SpecifiedLineTradeDelivery><ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax>${el('TypeCode', 'VAT')}${el('CalculatedRate', d.tax.rate)}${el('BasisAmount', money(l.basis), cur)}${el('CalculatedAmount', money(l.tax), cur)}</ram:ApplicableTradeTax><ram:SpecifiedTradeSettlementLineMonetarySummation>${el('TaxTotalAmount', money(l.tax), cur)}${el('NetLineTotalAmount', money(l.basis), cur)}${el('NetIncludingTaxesLineTotalAmount', money(l.net_including_tax), cur)}</ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>`,
    )
    .join('');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<rsm:${d.root} xmlns:rsm="${d.namespaces.rsm}" xmlns:ram="${d.namespaces.ram}">`,
    `<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter>${el('ID', ETAX_GUIDELINE_ID, ' schemeAgencyID="ETDA" schemeVersionID="v2.1"')}</ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>`,
    `<rsm:ExchangedDocument>${el('ID', d.document.id)}${el('Name', d.document.name)}${el('TypeCode', d.document.type_code)}${el('IssueDateTime', d.document.issue_date_time)}${el('Purpose', d.document.purpose)}${el('PurposeCode', d.document.purpose_code)}${el('CreationDateTime', d.document.creation_date_time)}</rsm:ExchangedDocument>`,
    '<rsm:SupplyChainTradeTransaction>',
    `<ram:ApplicableHeaderTradeAgreement>${party('SellerTradeParty', d.seller)}${party('BuyerTradeParty', d.buyer)}${
      d.referenced_document ? `<ram:AdditionalReferencedDocument>${el('IssuerAssignedID', d.referenced_document.id)}${el('IssueDateTime', d.referenced_document.issue_date)}${el('ReferenceTypeCode', d.referenced_document.type_code)}</ram:AdditionalReferencedDocument>` : ''
    }</ram:ApplicableHeaderTradeAgreement>`,
    '<ram:ApplicableHeaderTradeDelivery/>',
    `<ram:ApplicableHeaderTradeSettlement>${el('InvoiceCurrencyCode', d.currency, ' listID="ISO 4217 3A"')}<ram:ApplicableTradeTax>${el('TypeCode', d.tax.type_code)}${el('CalculatedRate', d.tax.rate)}${el('BasisAmount', money(d.tax.basis), cur)}${el('CalculatedAmount', money(d.tax.amount), cur)}</ram:ApplicableTradeTax>`,
    `<ram:SpecifiedTradeSettlementHeaderMonetarySummation>${s.original_information_amount !== undefined ? el('OriginalInformationAmount', money(s.original_information_amount), cur) : ''}${el('LineTotalAmount', money(s.line_total), cur)}${s.difference_information_amount !== undefined ? el('DifferenceInformationAmount', money(s.difference_information_amount), cur) : ''}${el('AllowanceTotalAmount', money(s.allowance_total), cur)}${el('ChargeTotalAmount', money(s.charge_total), cur)}${el('TaxBasisTotalAmount', money(s.tax_basis_total), cur)}${el('TaxTotalAmount', money(s.tax_total), cur)}${el('GrandTotalAmount', money(s.grand_total), cur)}</ram:SpecifiedTradeSettlementHeaderMonetarySummation>`,
    '</ram:ApplicableHeaderTradeSettlement>',
    lines,
    '</rsm:SupplyChainTradeTransaction>',
    `</rsm:${d.root}>`,
    '',
  ].join('\n');
}
