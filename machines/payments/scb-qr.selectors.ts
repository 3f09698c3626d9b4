import type { SnapshotFrom } from 'xstate';
import { selectQrPhase, type QrPhase } from './promptpay.selectors';
import type { scbQrMachine } from './scb-qr.machine';

type S = SnapshotFrom<typeof scbQrMachine>;

/** What the bank QR modal shows: a spinner, the QR with its countdown, the cleared QR, or the failure with Try again. */
export const selectScbQrPhase = (s: S): QrPhase => selectQrPhase(s);

export const selectQrImage = (s: S): string | null => s.context.qrImage;
export const selectScbQrExpiresAt = (s: S): string | null => s.context.expiresAt;

/**
 * The time left until `expiresAt` at the wall-clock time `now` (ms): computed from the clock, not
 * counted in timer ticks, so a tab the browser throttled in the background shows the right time.
 */
export function scbQrCountdown(expiresAt: string | null, now: number): { minutes: number; seconds: number; totalSeconds: number } {
  const total = Math.max(0, Math.ceil((Date.parse(expiresAt ?? '') - now) / 1000) || 0);
  return { minutes: Math.floor(total / 60), seconds: total % 60, totalSeconds: total };
}

/** True while the order is being read (a poll, a resume or 'Done'). */
export const selectScbIsChecking = (s: S): boolean => s.matches({ awaitingScan: { poll: 'checking' } }) || s.matches('checkingPayment');
/** The realtime push of the order's status is listened to (else only the poll runs). */
export const selectScbListeningForPush = (s: S): boolean => s.matches({ awaitingScan: { push: 'listening' } });

/** 'Try again' shows on failure and after the QR expired; 'Done' while a QR is or was shown. */
export const selectCanRetry = (s: S): boolean => s.can({ type: 'payment.retry' });
export const selectCanFinish = (s: S): boolean => s.can({ type: 'qr.done' });
