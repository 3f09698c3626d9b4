/** The model-based harness itself must be able to fail: unreached states, divergence, wrong acceptance, failed checks. */
import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { defineModel } from './support/model';
import { prepare, replay } from './support/replay';

const toy = setup({
  types: { context: {} as { n: number }, events: {} as { type: 'a' } | { type: 'b' } },
  actors: { load: fromPromise<number>(async () => 1) },
  delays: { tick: 100 },
}).createMachine({
  id: 'toy',
  context: { n: 0 },
  initial: 'idle',
  states: {
    idle: { on: { a: 'loading', b: 'hidden' } },
    loading: { invoke: { id: 'load', src: 'load', onDone: 'waiting', onError: 'idle' } },
    waiting: { after: { tick: 'idle' } },
    hidden: {},
  },
});

describe('model-based harness', () => {
  it('walks invokes and delays and reports full coverage when every event is modelled', async () => {
    const model = defineModel({ machine: toy, file: 'toy', userEvents: [{ type: 'a' }, { type: 'b' }], accepts: (s) => (s.matches('idle') ? ['a', 'b'] : []) });
    const run = prepare(model);
    for (const p of run.paths) await replay(model, p, run.recorder);
    expect(() => run.recorder.assertComplete('toy')).not.toThrow();
    expect(run.recorder.summary().transitionPercent).toBe(100);
  });

  it('fails naming the state and transition no path reaches', async () => {
    const model = defineModel({ machine: toy, file: 'toy', userEvents: [{ type: 'a' }], accepts: (s) => (s.matches('idle') ? ['a'] : []) });
    const run = prepare(model);
    for (const p of run.paths) await replay(model, p, run.recorder);
    expect(() => run.recorder.assertComplete('toy')).toThrow(/toy\.hidden[\s\S]*toy\.idle \| b #0/);
  });

  it('fails when the machine accepts an event the model says it refuses', async () => {
    const model = defineModel({ machine: toy, file: 'toy', userEvents: [{ type: 'a' }, { type: 'b' }], accepts: (s) => (s.matches('idle') ? ['a'] : []) });
    const [path] = prepare(model).paths;
    await expect(replay(model, path!)).rejects.toThrow(/Accepted user events differ/);
  });

  it('fails when a check fails', async () => {
    const model = defineModel({
      machine: toy,
      file: 'toy',
      userEvents: [{ type: 'a' }],
      accepts: (s) => (s.matches('idle') ? ['a'] : []),
      check: (s) => {
        if (s.matches('waiting')) throw new Error('waiting must show a spinner');
      },
    });
    const run = prepare(model);
    const results = await Promise.allSettled(run.paths.map((p) => replay(model, p)));
    expect(results.some((r) => r.status === 'rejected' && /spinner/.test(String(r.reason)))).toBe(true);
  });

  it('fails when the real machine is not where the model is (impure context)', async () => {
    let world = 0;
    const drifting = setup({ types: { context: {} as { n: number }, events: {} as { type: 'a' } } }).createMachine({
      id: 'drift',
      context: { n: 0 },
      on: { a: { actions: assign({ n: () => world }) } },
    });
    const model = defineModel({ machine: drifting, file: 'drift', userEvents: [{ type: 'a' }], accepts: () => ['a'] });
    const [path] = prepare(model).paths;
    world = 1; // the machine reads something outside its context: replay no longer matches the walk
    await expect(replay(model, path!)).rejects.toThrow(/not where the model is/);
  });
});
