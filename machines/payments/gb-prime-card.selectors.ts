import type { SnapshotFrom } from 'xstate';
import type { gbPrimeCardMachine } from './gb-prime-card.machine';

type S = SnapshotFrom<typeof gbPrimeCardMachine>;

export function selectGbPrimeCardPhase(s: S): 'preparing' | 'awaitingReturn' | 'checking' | 'finished' {
  if (s.matches('awaitingReturn')) return 'awaitingReturn';
  if (s.matches('reconciling')) return 'checking';
  if (s.status === 'done') return 'finished';
  return 'preparing';
}
