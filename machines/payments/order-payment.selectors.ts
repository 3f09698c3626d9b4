import type { AnyActorRef, SnapshotFrom } from 'xstate';
import { methodActor } from './methods';
import type { orderPaymentMachine } from './order-payment.machine';

type S = SnapshotFrom<typeof orderPaymentMachine>;

/** What the pay-again panel shows. */
export type OrderPaymentPhase = 'closed' | 'loading' | 'choosing' | 'paying' | 'failed' | 'confirmingCancel' | 'cancelling';

export function selectOrderPaymentPhase(s: S): OrderPaymentPhase {
  if (s.matches('loadingOrder') || s.matches('loadingMethods') || s.matches('recordingFree') || s.matches('readingResult') || s.matches('done')) return 'loading';
  if (s.matches('choosing')) return 'choosing';
  if (s.matches('paying')) return 'paying';
  if (s.matches('failed')) return 'failed';
  if (s.matches('confirmingCancel')) return 'confirmingCancel';
  if (s.matches('cancelling')) return 'cancelling';
  return 'closed';
}

export const selectPayingOrderId = (s: S): number | null => s.context.orderId;
export const selectPayingOrder = (s: S) => s.context.order;
export const selectPayableMethods = (s: S) => s.context.methods;
export const selectChosenMethod = (s: S): number | null => s.context.methodId;

/** The running payment machine and its method (its modal renders from it). */
export function selectOrderPaymentChild(s: S): { methodId: number; ref: AnyActorRef } | null {
  if (!s.matches('paying') || s.context.methodId === null) return null;
  const ref = (s.children as Record<string, AnyActorRef | undefined>)[methodActor(s.context.methodId)];
  return ref ? { methodId: s.context.methodId, ref } : null;
}
