import type { SnapshotFrom } from 'xstate';
import type { gbPrimePromptPayMachine } from './gb-prime-promptpay.machine';
import type { omisePromptPayMachine } from './omise-promptpay.machine';

type S = SnapshotFrom<typeof omisePromptPayMachine> | SnapshotFrom<typeof gbPrimePromptPayMachine>;

export type QrPhase = 'loading' | 'qr' | 'expired' | 'failure' | 'finished';

/** What a QR modal shows, for every member of the QR family (qr.family.ts): a spinner, the QR, the cleared QR, the failure with Try again. */
export function selectQrPhase(s: { status: string; matches(value: never): boolean }): QrPhase {
  const is = (v: string) => (s.matches as (v: string) => boolean)(v);
  if (is('awaitingScan')) return 'qr';
  if (is('expired')) return 'expired';
  if (is('failed')) return 'failure';
  if (s.status === 'done') return 'finished';
  return 'loading';
}

/** What the PromptPay QR modal shows (Omise method 9 and GB Prime Pay method 12 alike). */
export const selectPromptPayPhase = (s: S): QrPhase => selectQrPhase(s);

/** The QR to show: an image URL (Omise) or a data URL of the base64 PNG (GB Prime Pay); null when there is none. */
export function selectPromptPayQr(s: S): string | null {
  if ('qrImageUrl' in s.context) return s.context.qrImageUrl;
  return s.context.qrImage ? `data:image/png;base64,${s.context.qrImage}` : null;
}

/** True while the order is being read (a poll or a resume). */
export const selectIsCheckingPayment = (s: S): boolean => s.matches({ awaitingScan: { poll: 'checking' } });
/** The realtime push of the order's status is listened to (else only the poll runs). */
export const selectListeningForPush = (s: S): boolean => s.matches({ awaitingScan: { push: 'listening' } });
export const selectCanRetryPromptPay = (s: S): boolean => s.can({ type: 'payment.retry' });
