/**
 * The browser engine's trace (tests/e2e/engine/trace.ts), checked without a browser: the script
 * the page runs records each macrostep with the event handled and the transitions taken, keyed by
 * scripts/transition-key.ts (the key of the drawings, the machine tests and `npm run e2e:report`),
 * and what it records for a path's events is what the runner's per-step check expects
 * (cover.ts's plannedSteps): the same event and the same transition keys, step by step. A read
 * that took the failure planned for another read shows as another key.
 */
import { runInNewContext } from 'node:vm';
import { createActor, SimulatedClock, type AnyStateMachine, type InspectionEvent } from 'xstate';
import { describe, expect, it } from 'vitest';
import { plannedSteps, replayable } from '../e2e/engine/cover';
import { scbQrMap } from '../e2e/engine/maps/scb-qr';
import { browserPaths, type BrowserModel } from '../e2e/engine/paths';
import { INSPECT_INIT_SCRIPT, MachineTrace, type TraceRecord } from '../e2e/engine/trace';

/**
 * A machine of the model run with the page's init script as its inspector; the events sent in order.
 * The script sends a task's records at the task's end (a microtask): they are in the trace once the
 * microtasks queued by the run have run, as on the page.
 */
async function recorded(model: BrowserModel, events: { type: string }[]): Promise<MachineTrace> {
  const trace = new MachineTrace();
  const store = new Map<string, string>();
  const window: Record<string, unknown> = { __e2eRecord: async (records: TraceRecord[]) => trace.add(records) };
  const sessionStorage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
  runInNewContext(INSPECT_INIT_SCRIPT, { window, sessionStorage, JSON, Math, Date, Set, queueMicrotask });
  const inspect = window.__E2E_INSPECT__ as (ev: InspectionEvent) => void;
  const actor = createActor(replayable(model) as AnyStateMachine, { input: model.input, clock: new SimulatedClock(), inspect } as never);
  actor.subscribe({ error: () => undefined });
  actor.start();
  for (const e of events) actor.send(e);
  actor.stop();
  await new Promise((r) => setImmediate(r)); // every microtask of the run has run before a macrotask
  return trace;
}

describe("the engine's trace records each step's transition as the runner plans it", () => {
  const model = scbQrMap.model;
  const paths = browserPaths(model);

  it('every SCB QR path: one macrostep per step, with the planned event and transition keys', async () => {
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) {
      const trace = await recorded(model, path.steps.slice(1).map((s) => s.event));
      const plan = plannedSteps(model, path).slice(1);
      const taken = trace.macrosteps('scbQr').map((ms) => ({ event: ms.event, keys: ms.keys }));
      expect(taken, path.title).toEqual(plan);
      // the state values as the runner compares them
      expect(trace.macrosteps('scbQr').map((ms) => ms.value), path.title).toEqual(path.steps.slice(1).map((s) => s.value));
      for (const ms of trace.macrosteps('scbQr')) for (const k of ms.keys) expect(k).toMatch(/^scbQr(\.[\w.]+)? \| [\w.]+ #\d+$/);
    }
  });

  it("a poll's read that takes the failure meant for the read of 'Done' is another transition than planned", async () => {
    const path = paths.find((p) => p.title.startsWith('✓createScbQrCode:ok → qr.done → ✗getOrder:network'))!;
    expect(path).toBeDefined();
    const plan = plannedSteps(model, path);
    expect(plan.at(-1)).toEqual({ event: 'xstate.error.actor.getOrder', keys: ['scbQr.checkingPayment | xstate.error.actor.getOrder #0'] });
    // the poll reads and fails, then 'Done' is read and finds the order unpaid: pending all the same
    const [created] = path.steps.slice(1).map((s) => s.event);
    const poll = model.machine.root.states.awaitingScan!.states.poll!.states.waiting!.after[0]!.eventType;
    const unpaid = paths.flatMap((p) => p.steps).find((s) => s.label === '✓getOrder:unpaid')!.event;
    const trace = await recorded(model, [created!, { type: poll }, { type: 'xstate.error.actor.getOrder' }, { type: 'qr.done' }, unpaid]);
    const steps = trace.macrosteps('scbQr');
    expect(steps.at(-1)!.value).toBe(path.steps.at(-1)!.value);
    expect(steps.some((ms) => ms.event === plan.at(-1)!.event && ms.keys.join() === plan.at(-1)!.keys.join())).toBe(false);
    expect(steps.find((ms) => ms.event === 'xstate.error.actor.getOrder')!.keys).toEqual(['scbQr.awaitingScan.poll.checking | xstate.error.actor.getOrder #0']);
  });
});
