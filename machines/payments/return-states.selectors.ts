/** The phase of a flow that sends the buyer to another page (see return-states.ts). */
export interface ReturningSnapshot {
  status: string;
  matches(value: never): boolean;
}

export type ReturnPhase = 'preparing' | 'awaitingReturn' | 'checking' | 'finished';

export function returnPhase(s: ReturningSnapshot, waiting = 'awaitingReturn'): ReturnPhase {
  const is = (v: string) => (s.matches as (v: string) => boolean)(v);
  if (is(waiting)) return 'awaitingReturn';
  if (is('reconciling')) return 'checking';
  if (s.status === 'done') return 'finished';
  return 'preparing';
}
