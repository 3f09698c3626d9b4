import assert from 'node:assert/strict';
import { assign } from 'xstate';
import { accessCountdownMachine } from '../../../machines/countdown/access-countdown.machine';
import { selectAccessExpired, selectAccessUnlimited, selectTimeLeft } from '../../../machines/countdown/access-countdown.selectors';
import { remainingMs } from '../../../domain/plans';
import { defineModel } from '../support/model';

const NOW = Date.UTC(2025, 0, 31, 10, 0, 0);
const HOUR = 3_600_000;
/** An Actual plan of 1 hour that started 1 h − 100 ms ago: 100 ms left. */
const ending = { planType: 'Actual', startDateTime: NOW - HOUR + 100, term: 1, termUnit: 'Hour(s)' };
const lifetime = { planType: 'One-Time Payment', startDateTime: NOW - HOUR };
const over = { planType: 'Period', startDateTime: NOW - 40 * 86_400_000, courseDays: 30 };

/** The machine with a simulated clock: every tick reads 33 ms later. */
const simulated = accessCountdownMachine.provide({
  actions: { readClock: assign({ now: ({ context }) => context.now + 33 }) },
});

export const accessCountdownModel = defineModel({
  machine: simulated,
  file: 'machines/countdown/access-countdown.machine.ts',
  input: { record: ending, now: NOW },
  variants: [
    { name: 'one-time payment', input: { record: lifetime, now: NOW } },
    { name: 'no record', input: { record: null, now: NOW } },
  ],
  userEvents: [
    { type: 'countdown.update', record: over, now: NOW },
    { type: 'countdown.update', record: lifetime, now: NOW },
  ],
  accepts: () => ['countdown.update'],
  check: (s, step) => {
    const left = selectTimeLeft(s);
    if (s.matches('running')) {
      assert.ok((s.context.remainingMs ?? 0) > 0);
      // The domain's access-time function, read at the tick's clock reading.
      assert.equal(s.context.remainingMs, remainingMs(s.context.record!, s.context.now));
      assert.ok(left && left.days === 0 && left.hours === 0);
    }
    if (s.matches('expired')) {
      assert.ok(selectAccessExpired(s));
      assert.equal(s.context.remainingMs, 0, 'floored at 0, never negative');
    }
    if (s.matches('unlimited')) {
      assert.ok(selectAccessUnlimited(s));
      assert.equal(left, null);
    }
    if (step.event.type.startsWith('xstate.after.countdownTick')) {
      const fired = step.clock.pending();
      assert.ok(fired.every((t) => t.delay === 33), 'ticks every 33 ms (about 30 a second)');
    }
  },
});
