import { types } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, StateMachine } from 'xstate';
import { builtOnFirstUse } from '../../machines/shared/built-on-first-use';
import { PAYMENT_MACHINES } from '../../machines/payments/methods';

const toggle = () => createMachine({ id: 'toggle', initial: 'off', states: { off: { on: { flip: 'on' } }, on: { on: { flip: 'off' } } } });

describe('builtOnFirstUse', () => {
  it('builds on the first read, once', () => {
    const build = vi.fn(toggle);
    const machine = builtOnFirstUse(build);
    expect(build).not.toHaveBeenCalled();
    expect(machine.id).toBe('toggle');
    expect(machine.config.initial).toBe('off');
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('stands for the machine: an actor of it runs, instanceof, keys and `in` reach the built one', () => {
    const machine = builtOnFirstUse(toggle);
    const actor = createActor(machine).start();
    actor.send({ type: 'flip' });
    expect(actor.getSnapshot().value).toBe('on');
    expect(machine instanceof StateMachine).toBe(true);
    expect('transition' in machine).toBe(true);
    expect(Object.keys(machine)).toEqual(Object.keys(toggle()));
    // the same bound method on every read
    expect(machine.transition).toBe(machine.transition);
  });

  it('an object made from it keeps its own writes (a walk that wraps `transition`)', () => {
    const machine = builtOnFirstUse(toggle);
    const walked = Object.create(machine) as typeof machine;
    const seen: unknown[] = [];
    walked.transition = ((s, e, scope) => {
      seen.push(e.type);
      return machine.transition(s, e, scope);
    }) as typeof machine.transition;
    const actor = createActor(walked).start();
    actor.send({ type: 'flip' });
    expect(actor.getSnapshot().value).toBe('on');
    expect(seen).toEqual(['flip']);
    // the stand-in's own transition is the machine's, not the wrapper
    expect(machine.transition).not.toBe(walked.transition);
  });
});

describe('the payment machines', () => {
  it('are stand-ins, built when a payment first uses one (not when the checkout code loads)', () => {
    for (const [id, machine] of Object.entries(PAYMENT_MACHINES)) {
      expect(types.isProxy(machine), id).toBe(true);
      expect(machine.id).toBe(id);
    }
  });
});
