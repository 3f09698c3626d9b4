import type { SnapshotFrom } from 'xstate';
import type { withholdingCertificateMachine } from './withholding-certificate.machine';

type Snapshot = SnapshotFrom<typeof withholdingCertificateMachine>;

export type CertificatePhase = 'closed' | 'idle' | 'uploading' | 'failed' | 'waiting' | 'received';

/** What the order card shows of the certificate. */
export function selectCertificatePhase(s: Snapshot): CertificatePhase {
  for (const p of ['idle', 'uploading', 'failed', 'waiting', 'received'] as const) if (s.matches(p)) return p;
  return 'closed';
}

/** The file input is offered (choose, or choose another). */
export const selectCanChoose = (s: Snapshot): boolean => s.matches('idle') || s.matches('failed') || s.matches('waiting');

/** The shop's reason for rejecting the last certificate (shown while a new one may be chosen). */
export const selectRejection = (s: Snapshot): string | null => (s.context.certificate?.status === 'rejected' ? s.context.certificate.reason : null);

export const selectCertificateError = (s: Snapshot) => s.context.error;
export const selectWithheld = (s: Snapshot) => s.context.withholding;
export const selectCertificate = (s: Snapshot) => s.context.certificate;
