/**
 * Access countdown of a bought course (spec section 4 "Plan types and access time"): the time
 * left is the domain's remainingMs(record, now) (calendar arithmetic, decisions.md #1), floored
 * at 0; it ticks about 30 times a second (countdownTick, 33 ms). Period and Actual plans count
 * down; One-Time Payment, Free and courseDays -1 are unlimited. A new record (countdown.update,
 * e.g. after a renewal) starts again.
 */
import { assign, setup } from 'xstate';
import { remainingMs } from '../../domain/plans';
import type { CountdownRecord } from '../../domain/types';

export interface AccessCountdownInput {
  record: CountdownRecord | null;
  /** Epoch ms when the countdown starts (the app passes Date.now()). */
  now: number;
}

export interface AccessCountdownContext {
  record: CountdownRecord | null;
  /** The clock reading of the last tick (epoch ms). */
  now: number;
  /** Time left in ms, floored at 0; null when unlimited or unknown. */
  remainingMs: number | null;
}

export type AccessCountdownEvent = { type: 'countdown.update'; record: CountdownRecord | null; now: number };

function left(record: CountdownRecord | null, now: number): number | null {
  return record ? remainingMs(record, now) : null;
}

export const accessCountdownMachine = setup({
  types: {
    context: {} as AccessCountdownContext,
    events: {} as AccessCountdownEvent,
    input: {} as AccessCountdownInput,
  },
  guards: {
    unlimited: ({ context }) => context.remainingMs === null,
    timeLeft: ({ context }) => (context.remainingMs ?? 0) > 0,
  },
  actions: {
    /** Reads the clock: wall time in the app (tests provide a simulated clock). */
    readClock: assign({ now: () => Date.now() }),
    computeRemaining: assign({ remainingMs: ({ context }) => left(context.record, context.now) }),
    takeRecord: assign((_, params: { record: CountdownRecord | null; now: number }) => ({
      record: params.record,
      now: params.now,
      remainingMs: left(params.record, params.now),
    })),
  },
  delays: {
    countdownTick: 33,
  },
}).createMachine({
  id: 'accessCountdown',
  context: ({ input }) => ({ record: input.record, now: input.now, remainingMs: left(input.record, input.now) }),
  initial: 'evaluating',
  on: {
    'countdown.update': { target: '.evaluating', actions: { type: 'takeRecord', params: ({ event }) => ({ record: event.record, now: event.now }) } },
  },
  states: {
    evaluating: {
      always: [{ guard: 'unlimited', target: 'unlimited' }, { guard: 'timeLeft', target: 'running' }, { target: 'expired' }],
    },
    running: {
      after: {
        countdownTick: { target: 'evaluating', actions: ['readClock', 'computeRemaining'] },
      },
    },
    unlimited: {},
    expired: {},
  },
});
