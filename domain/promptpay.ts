/**
 * PromptPay / Thai QR payment payloads (EMVCo merchant-presented QR), pure: no Node or browser APIs.
 *
 * Layout (providers.md): each field is ID(2) LEN(2) VALUE.
 *   00 "01" payload format; 01 "11" static | "12" dynamic (with amount);
 *   29 PromptPay credit transfer {00 AID A000000677010111; 01 mobile 0066XXXXXXXXX | 02 tax id (13) | 03 e-wallet (15)}
 *   30 Thai QR bill payment      {00 AID A000000677010112; 01 biller id (15); 02 ref1; 03 ref2}  (SCB QR30)
 *   53 "764" (THB); 54 amount with 2 decimals; 58 "TH"; 62 additional data (optional);
 *   63 CRC-16/CCITT-FALSE over everything before its value, including "6304", 4 uppercase hex.
 */
import { parseAmount, toDecimalString } from './money';

export const PROMPTPAY_AID = 'A000000677010111';
export const BILL_PAYMENT_AID = 'A000000677010112';
export const THB_NUMERIC = '764';

export type PromptPayTarget =
  | { kind: 'mobile'; id: string }
  | { kind: 'taxId'; id: string }
  | { kind: 'eWallet'; id: string };

export interface BillPaymentTarget {
  kind: 'billPayment';
  /** 15-digit biller id (13-digit tax id + 2-digit suffix). */
  billerId: string;
  /** Reference 1: A-Z 0-9, up to 20 characters. */
  ref1: string;
  /** Reference 2 (optional): A-Z 0-9, up to 20 characters. */
  ref2?: string;
}

export interface PayloadOptions {
  /** Amount in satang; omitted (or null) gives a static QR without amount. */
  amount?: number | null;
  /** Optional terminal label / reference placed in tag 62.07 (A-Z 0-9, up to 25). */
  terminalLabel?: string;
}

/** One field of a TLV payload. */
export interface TlvField {
  id: string;
  value: string;
}

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) of ASCII text. */
export function crc16CcittFalse(text: string): number {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) throw new RangeError('EMVCo payloads here are ASCII only');
    crc ^= code << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** The CRC as the 4 uppercase hex digits tag 63 carries. */
export function crcHex(text: string): string {
  return crc16CcittFalse(text).toString(16).toUpperCase().padStart(4, '0');
}

/** One TLV field; throws when the value is longer than 99 characters or not printable ASCII. */
export function tlv(id: string, value: string): string {
  if (!/^\d{2}$/u.test(id)) throw new RangeError(`bad tag id ${id}`);
  if (value.length === 0 || value.length > 99) throw new RangeError(`tag ${id}: value length ${value.length} not in 1..99`);
  if (!/^[\x20-\x7e]+$/u.test(value)) throw new RangeError(`tag ${id}: value must be printable ASCII`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** Parse one level of TLV fields; throws RangeError on a malformed payload. */
export function parseTlv(payload: string): TlvField[] {
  const out: TlvField[] = [];
  let i = 0;
  while (i < payload.length) {
    const id = payload.slice(i, i + 2);
    const lenText = payload.slice(i + 2, i + 4);
    if (!/^\d{2}$/u.test(id) || !/^\d{2}$/u.test(lenText)) throw new RangeError(`malformed TLV at ${i}`);
    const len = Number(lenText);
    const value = payload.slice(i + 4, i + 4 + len);
    if (value.length !== len) throw new RangeError(`truncated TLV field ${id}`);
    out.push({ id, value });
    i += 4 + len;
  }
  return out;
}

/** Mobile number as PromptPay wants it: 0812345678 -> 0066812345678 (13 digits). */
export function formatPromptPayMobile(mobile: string): string {
  const digits = mobile.replace(/\D/gu, '');
  const national = digits.startsWith('66') ? digits.slice(2) : digits.replace(/^0/u, '');
  if (!/^\d{8,9}$/u.test(national)) throw new RangeError('not a Thai mobile number');
  return `0066${national}`.slice(-13).padStart(13, '0');
}

function targetField(target: PromptPayTarget | BillPaymentTarget): string {
  if (target.kind === 'billPayment') {
    if (!/^\d{15}$/u.test(target.billerId)) throw new RangeError('biller id must be 15 digits');
    for (const ref of [target.ref1, target.ref2]) {
      if (ref !== undefined && !/^[A-Z0-9]{1,20}$/u.test(ref)) throw new RangeError('references are A-Z 0-9, up to 20 characters');
    }
    return tlv(
      '30',
      tlv('00', BILL_PAYMENT_AID) + tlv('01', target.billerId) + tlv('02', target.ref1) + (target.ref2 ? tlv('03', target.ref2) : ''),
    );
  }
  let sub: string;
  if (target.kind === 'mobile') sub = tlv('01', formatPromptPayMobile(target.id));
  else if (target.kind === 'taxId') {
    const id = target.id.replace(/\D/gu, '');
    if (id.length !== 13) throw new RangeError('tax / national id must be 13 digits');
    sub = tlv('02', id);
  } else {
    const id = target.id.replace(/\D/gu, '');
    if (id.length !== 15) throw new RangeError('e-wallet id must be 15 digits');
    sub = tlv('03', id);
  }
  return tlv('29', tlv('00', PROMPTPAY_AID) + sub);
}

/**
 * Build a PromptPay (tag 29) or Thai QR bill payment (tag 30) payload.
 * With an amount the QR is dynamic (01 = "12") and carries tag 54; without, static ("11").
 */
export function buildPromptPayPayload(target: PromptPayTarget | BillPaymentTarget, options: PayloadOptions = {}): string {
  const amount = options.amount ?? null;
  if (amount !== null && (!Number.isSafeInteger(amount) || amount <= 0)) {
    throw new RangeError('amount must be a positive integer number of satang');
  }
  let body = tlv('00', '01') + tlv('01', amount === null ? '11' : '12') + targetField(target) + tlv('53', THB_NUMERIC);
  if (amount !== null) body += tlv('54', toDecimalString(amount));
  body += tlv('58', 'TH');
  if (options.terminalLabel) {
    if (!/^[A-Z0-9]{1,25}$/u.test(options.terminalLabel)) throw new RangeError('terminal label is A-Z 0-9, up to 25');
    body += tlv('62', tlv('07', options.terminalLabel));
  }
  const withCrcTag = `${body}6304`;
  return withCrcTag + crcHex(withCrcTag);
}

/** True when the payload ends with a tag 63 whose value is the CRC of everything before it. */
export function hasValidCrc(payload: string): boolean {
  if (payload.length < 8) return false;
  const tail = payload.slice(-8);
  if (!tail.startsWith('6304')) return false;
  try {
    return crcHex(payload.slice(0, -4)) === tail.slice(4).toUpperCase();
  } catch {
    return false;
  }
}

export interface ParsedPromptPay {
  crcValid: boolean;
  dynamic: boolean;
  /** Amount in satang, or null for a static QR. */
  amount: number | null;
  currency: string | null;
  country: string | null;
  /** PromptPay (29) target or bill payment (30) target. */
  target: PromptPayTarget | BillPaymentTarget | null;
  terminalLabel: string | null;
  fields: TlvField[];
}

/** Read a payload back (for tests, reconciliation and the sandbox). Throws RangeError when malformed. */
export function parsePromptPayPayload(payload: string): ParsedPromptPay {
  const fields = parseTlv(payload);
  const get = (id: string) => fields.find((f) => f.id === id)?.value ?? null;
  let target: ParsedPromptPay['target'] = null;
  const pp = get('29');
  const bill = get('30');
  if (pp !== null) {
    const sub = parseTlv(pp);
    const s = (id: string) => sub.find((f) => f.id === id)?.value;
    const mobile = s('01');
    const tax = s('02');
    const wallet = s('03');
    if (mobile) target = { kind: 'mobile', id: mobile };
    else if (tax) target = { kind: 'taxId', id: tax };
    else if (wallet) target = { kind: 'eWallet', id: wallet };
  } else if (bill !== null) {
    const sub = parseTlv(bill);
    const s = (id: string) => sub.find((f) => f.id === id)?.value;
    const ref2 = s('03');
    target = { kind: 'billPayment', billerId: s('01') ?? '', ref1: s('02') ?? '', ...(ref2 ? { ref2 } : {}) };
  }
  const amountText = get('54');
  const extra = get('62');
  let terminalLabel: string | null = null;
  if (extra !== null) terminalLabel = parseTlv(extra).find((f) => f.id === '07')?.value ?? null;
  return {
    crcValid: hasValidCrc(payload),
    dynamic: get('01') === '12',
    amount: amountText === null ? null : parseAmount(amountText),
    currency: get('53'),
    country: get('58'),
    target,
    terminalLabel,
    fields,
  };
}
