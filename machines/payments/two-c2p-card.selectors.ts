import type { SnapshotFrom } from 'xstate';
import type { twoC2pCardMachine } from './two-c2p-card.machine';

type S = SnapshotFrom<typeof twoC2pCardMachine>;

/** The card form shows while entering; then a spinner while the form is signed and posted. */
export function selectTwoC2pCardPhase(s: S): 'form' | 'signing' | 'awaitingResult' | 'checking' | 'finished' {
  if (s.matches('enteringCard')) return 'form';
  if (s.matches('awaitingResult')) return 'awaitingResult';
  if (s.matches('reconciling')) return 'checking';
  if (s.status === 'done') return 'finished';
  return 'signing';
}

export const selectCardFormEnabled = (s: S): boolean => s.matches('enteringCard');
