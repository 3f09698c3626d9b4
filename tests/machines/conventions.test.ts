/** The machine conventions of architecture.md, checked on every machine's definition. */
import { describe, expect, it } from 'vitest';
import { getStateNodes } from 'xstate/graph';
import { MODELS } from './models';

describe.each(MODELS.map((m) => [m.machine.id, m] as const))('%s follows the conventions', (_id, model) => {
  const machine = model.machine;
  const nodes = [machine.root, ...getStateNodes(machine.root)];

  it('invokes: id === src, and every invoke has onError', () => {
    for (const node of nodes) {
      for (const inv of node.invoke) {
        expect(inv.id, `${node.id}`).toBe(inv.src);
        expect(node.transitions.has(`xstate.error.actor.${inv.id}`), `${node.id} invokes ${inv.id} without onError`).toBe(true);
        expect(Object.keys(machine.implementations.actors), `${inv.src} is declared in setup()`).toContain(inv.src);
      }
    }
  });

  it('delays are named', () => {
    for (const node of nodes) {
      for (const t of node.after) {
        expect(t.eventType, node.id).toMatch(/^xstate\.after\.[A-Za-z]+\./);
        expect(Object.keys(machine.implementations.delays)).toContain(t.eventType.split('.')[2]);
      }
    }
  });

  it('the events the definition handles are named subject.verb, and the model sends only those', () => {
    const handled = new Set(nodes.flatMap((node) => [...node.transitions.keys()]).filter((type) => !type.startsWith('xstate.')));
    for (const type of handled) expect(type, `${machine.id} handles ${type}`).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
    for (const e of model.userEvents) expect(handled, `the model sends ${e.type}, which no state of ${machine.id} handles`).toContain(e.type);
  });

  it('final states carry output (or the machine maps them to its output)', () => {
    const finals = nodes.filter((n) => n.type === 'final');
    if (finals.length === 0) return;
    expect(machine.root.output, 'the machine has an output').toBeDefined();
  });
});
