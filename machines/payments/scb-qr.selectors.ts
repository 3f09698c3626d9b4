import type { SnapshotFrom } from 'xstate';
import type { scbQrMachine } from './scb-qr.machine';

type S = SnapshotFrom<typeof scbQrMachine>;

/** What the bank QR modal shows: a spinner, the QR with its countdown, the cleared QR, or the failure with Try again. */
export function selectScbQrPhase(s: S): 'loading' | 'qr' | 'expired' | 'failure' | 'finished' {
  if (s.matches('showingQr')) return 'qr';
  if (s.matches('expired')) return 'expired';
  if (s.matches('failed')) return 'failure';
  if (s.status === 'done') return 'finished';
  return 'loading';
}

export const selectQrImage = (s: S): string | null => s.context.qrImage;

export function selectScbQrCountdown(s: S): { minutes: number; seconds: number; totalSeconds: number } {
  const total = s.context.secondsLeft;
  return { minutes: Math.floor(total / 60), seconds: total % 60, totalSeconds: total };
}

/** 'Try again' shows on failure and after the QR expired; 'Done' while a QR is or was shown. */
export const selectCanRetry = (s: S): boolean => s.can({ type: 'payment.retry' });
export const selectCanFinish = (s: S): boolean => s.can({ type: 'qr.done' });
