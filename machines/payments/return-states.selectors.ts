import type { ReturnCheck } from './return-states';

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

/**
 * Back from the provider's page and waiting again: what the read of the order found ('unpaid':
 * the server has no payment yet; 'unchecked': the read failed); null while going there or checking.
 */
export function returnCheck(s: ReturningSnapshot & { context: { returned?: ReturnCheck } }, waiting = 'awaitingReturn'): ReturnCheck {
  return returnPhase(s, waiting) === 'awaitingReturn' ? (s.context.returned ?? null) : null;
}
