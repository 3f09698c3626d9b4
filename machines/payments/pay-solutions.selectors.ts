import type { SnapshotFrom } from 'xstate';
import type { paySolutionsMachine } from './pay-solutions.machine';

type S = SnapshotFrom<typeof paySolutionsMachine>;

export function selectPaySolutionsPhase(s: S): 'preparing' | 'awaitingReturn' | 'checking' | 'finished' {
  if (s.matches('awaitingReturn')) return 'awaitingReturn';
  if (s.matches('reconciling')) return 'checking';
  if (s.status === 'done') return 'finished';
  return 'preparing';
}
