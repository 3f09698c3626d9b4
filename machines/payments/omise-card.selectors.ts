import type { SnapshotFrom } from 'xstate';
import type { omiseCardMachine } from './omise-card.machine';

type S = SnapshotFrom<typeof omiseCardMachine>;

export type OmiseCardPhase = 'preparing' | 'form' | 'charging' | 'authorizing' | 'confirming' | 'failed' | 'finished';

/** What the Omise card popup shows. */
export function selectOmiseCardPhase(s: S): OmiseCardPhase {
  if (s.matches('enteringCard')) return 'form';
  if (s.matches('charging') || s.matches('approvingPayment')) return 'charging';
  if (s.matches('awaitingAuthorization')) return 'authorizing';
  if (s.matches('reconciling') || s.matches('awaitingConfirmation')) return 'confirming';
  if (s.matches('chargeFailed') || s.matches('requestFailed')) return 'failed';
  if (s.status === 'done') return 'finished';
  return 'preparing';
}

/** Back from 3-D Secure without a confirmed payment: the page reads the order again every 6 s, and the buyer may leave for the order list. */
export const selectOmiseNotConfirmed = (s: S): boolean => s.matches('awaitingConfirmation');

/** The public key Omise.js needs to open its form (null until read). */
export const selectOmisePublicKey = (s: S): string | null => s.context.publicKey;
/** The Omise form is open and may be submitted or closed. */
export const selectOmiseFormOpen = (s: S): boolean => s.matches('enteringCard');
