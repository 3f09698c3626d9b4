import type { SnapshotFrom } from 'xstate';
import type { twoC2pLinkMachine } from './two-c2p-link.machine';

type S = SnapshotFrom<typeof twoC2pLinkMachine>;

/** preparing the link, gone to 2C2P (or back, payment not confirmed yet), checking on return, finished. */
export function selectTwoC2pLinkPhase(s: S): 'preparing' | 'awaitingReturn' | 'checking' | 'finished' {
  if (s.matches('awaitingReturn')) return 'awaitingReturn';
  if (s.matches('reconciling')) return 'checking';
  if (s.status === 'done') return 'finished';
  return 'preparing';
}
