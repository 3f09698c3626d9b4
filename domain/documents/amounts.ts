/**
 * Every amount printed on a receipt, a full tax invoice or a credit note, from the order's priced
 * lines and the order's own figures (the ones the buyer paid). Nothing here invents a rule: the
 * VAT split is domain/tax.ts's `amountBeforeVat` (decisions.md #2: prices include VAT, before VAT =
 * amount ÷ (1 + vat/100) rounded half up), withholding is `withholdingAmount` on the pre-VAT tax
 * base, the tax base is `taxBase` (price − discount, shipping excluded) and the amount received is
 * `orderAmount` (price − discount + shipping − withholding).
 *
 * A document states the order's amounts exactly: the order's stored `vat_price`,
 * `withholding_price` and `total` are what the buyer saw and paid. `documentAmounts` recomputes
 * them with the domain functions and lists any difference in `mismatches` (a VAT rate changed in
 * the site settings between the order and its payment); the order's figures still win.
 *
 * All money is integer minor units (satang for THB, cents for USD).
 */
import { assertMinor, orderAmount, type Currency } from '../money';
import { amountBeforeVat, isVatEnabled, taxBase, vatPercent, withholdingAmount, isWithholdingPercent } from '../tax';
import type { TaxSettings } from '../types';

/** One priced order line (order_courses): gross = unit price × qty, discount, net = gross − discount. */
export interface DocumentLineInput {
  name: string;
  qty: number;
  /** Unit price × qty, VAT included. */
  original_pricing_price: number;
  /** Promotion + coupon discount of this line. */
  discount: number;
  /** original_pricing_price − discount. */
  price: number;
}

/** The order as it was paid: its lines and stored figures. */
export interface DocumentOrderInput {
  currency: Currency;
  lines: readonly DocumentLineInput[];
  /** Σ original_pricing_price. */
  price: number;
  /** Σ line discounts. */
  discount: number;
  shipping_fee: number;
  vat_price: number;
  withholding_price: number;
  withholding_percent: number | null;
  /** The amount paid: price − discount + shipping_fee − withholding_price. */
  total: number;
}

export interface DocumentLine {
  no: number;
  name: string;
  qty: number;
  /** Gross ÷ qty (VAT included), rounded half up when qty does not divide it. */
  unit_price: number;
  /** Unit price × qty as priced (VAT included). */
  gross: number;
  discount: number;
  /** gross − discount, VAT included. */
  amount: number;
  /** This line's share of the amount before VAT; Σ = DocumentAmounts.before_vat. */
  before_vat: number;
  /** amount − before_vat; Σ = DocumentAmounts.vat. */
  vat: number;
}

export interface DocumentAmounts {
  currency: Currency;
  lines: DocumentLine[];
  /** Σ gross (the order's price). */
  gross: number;
  /** Σ discounts (the order's discount). */
  discount: number;
  /** gross − discount: the goods and services, VAT included (the tax base). */
  base: number;
  /** The VAT rate shown, percent (0 when the shop does not charge VAT). */
  vat_percent: number;
  vat_charged: boolean;
  /** base − vat. */
  before_vat: number;
  vat: number;
  /** Shipping, outside the tax base (decisions: shipping is not part of the VAT base). */
  shipping: number;
  /** base + shipping: what the document is for. */
  grand_total: number;
  withholding_percent: number | null;
  /** Withheld by the buyer on before_vat; paid to the Revenue Department, not to the shop. */
  withholding: number;
  /** grand_total − withholding = the order's total: the money the shop received. */
  received: number;
  /** Differences between the order's stored figures and the domain functions' (empty when none). */
  mismatches: string[];
}

/**
 * Splits `total` (= Σ parts' own results) so the parts sum exactly: each line gets
 * `amountBeforeVat(line)`, and the rounding residue goes to the largest line (first on a tie).
 */
function allocate(parts: readonly number[], perPart: readonly number[], total: number): number[] {
  const out = [...perPart];
  const residue = total - out.reduce((s, n) => s + n, 0);
  if (residue !== 0 && out.length > 0) {
    let k = 0;
    for (let i = 1; i < parts.length; i++) if ((parts[i] as number) > (parts[k] as number)) k = i;
    out[k] = (out[k] as number) + residue;
  }
  return out;
}

function unitPrice(gross: number, qty: number): number {
  if (qty <= 1) return gross;
  return Math.floor((2 * gross + qty) / (2 * qty));
}

/** All amounts of a document for a paid order. Throws RangeError on a non-integer amount. */
export function documentAmounts(order: DocumentOrderInput, settings: TaxSettings): DocumentAmounts {
  for (const [k, v] of Object.entries({ price: order.price, discount: order.discount, shipping_fee: order.shipping_fee, vat_price: order.vat_price, withholding_price: order.withholding_price, total: order.total })) assertMinor(v, k);
  for (const l of order.lines) {
    assertMinor(l.original_pricing_price, 'line gross');
    assertMinor(l.discount, 'line discount');
    assertMinor(l.price, 'line amount');
  }
  const mismatches: string[] = [];
  const base = taxBase(order);
  const vatCharged = isVatEnabled(settings);
  const vat = order.vat_price;
  const beforeVat = base - vat;
  const expectedBefore = amountBeforeVat(base, settings);
  if (expectedBefore !== beforeVat) mismatches.push(`vat: order ${vat}, site settings give ${base - expectedBefore}`);

  const pct = order.withholding_price > 0 ? order.withholding_percent : null;
  if (pct !== null && isWithholdingPercent(pct)) {
    const expected = withholdingAmount(beforeVat, pct);
    if (expected !== order.withholding_price) mismatches.push(`withholding: order ${order.withholding_price}, ${pct}% of ${beforeVat} is ${expected}`);
  } else if (order.withholding_price !== 0) mismatches.push(`withholding: ${order.withholding_price} without a 3% or 1% rate`);

  const received = orderAmount({ price: order.price, discount: order.discount, shipping_fee: order.shipping_fee, withholding_price: order.withholding_price });
  if (received !== order.total) mismatches.push(`total: order ${order.total}, price − discount + shipping − withholding is ${received}`);
  const lineSum = order.lines.reduce((s, l) => s + l.price, 0);
  if (order.lines.length > 0 && lineSum !== base) mismatches.push(`lines: Σ ${lineSum} ≠ price − discount ${base}`);

  const amounts = order.lines.map((l) => l.price);
  const befores = allocate(amounts, amounts.map((a) => amountBeforeVat(a, settings)), lineSum === base ? beforeVat : amounts.reduce((s, a) => s + amountBeforeVat(a, settings), 0));
  const lines: DocumentLine[] = order.lines.map((l, i) => ({
    no: i + 1,
    name: l.name,
    qty: l.qty,
    unit_price: unitPrice(l.original_pricing_price, l.qty),
    gross: l.original_pricing_price,
    discount: l.discount,
    amount: l.price,
    before_vat: befores[i] as number,
    vat: l.price - (befores[i] as number),
  }));

  return {
    currency: order.currency,
    lines,
    gross: order.price,
    discount: order.discount,
    base,
    vat_percent: vatCharged ? vatPercent(settings) : 0,
    vat_charged: vatCharged,
    before_vat: beforeVat,
    vat,
    shipping: order.shipping_fee,
    grand_total: base + order.shipping_fee,
    withholding_percent: pct,
    withholding: order.withholding_price,
    // The order's total is what was paid; a mismatch above is reported, the paid figure stands.
    received: order.total,
    mismatches,
  };
}

/**
 * A credit note's amounts: `amount` (VAT included, ≤ the invoice's grand total) given back for
 * an issued document. The goods part is reduced first, shipping last; the VAT of the reduction is
 * `amount − amountBeforeVat(amount)` on the goods part, so a full credit gives back exactly the
 * invoice's VAT.
 */
export interface CreditAmounts {
  currency: Currency;
  /** The original document's figures. */
  original_grand_total: number;
  /** The amount credited (VAT included). */
  credited: number;
  /** Of it, goods and services (VAT included) and shipping. */
  credited_base: number;
  credited_shipping: number;
  credited_before_vat: number;
  credited_vat: number;
  /** What the document is worth after the credit (grand total − credited). */
  corrected_grand_total: number;
  corrected_before_vat: number;
  corrected_vat: number;
}

export function creditAmounts(original: DocumentAmounts, amount: number, settings: TaxSettings): CreditAmounts {
  assertMinor(amount, 'credit');
  if (amount < 0 || amount > original.grand_total) throw new RangeError(`credit ${amount} outside 0..${original.grand_total}`);
  const base = Math.min(amount, original.base);
  const shipping = amount - base;
  const full = base === original.base;
  const before = full ? original.before_vat : amountBeforeVat(base, original.vat_charged ? settings : { ...settings, is_enable_vat: false });
  return {
    currency: original.currency,
    original_grand_total: original.grand_total,
    credited: amount,
    credited_base: base,
    credited_shipping: shipping,
    credited_before_vat: before,
    credited_vat: base - before,
    corrected_grand_total: original.grand_total - amount,
    corrected_before_vat: original.before_vat - before,
    corrected_vat: original.vat - (base - before),
  };
}
