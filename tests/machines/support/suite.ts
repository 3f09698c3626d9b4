import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import type { MachineModel } from './model';
import { prepare, replay } from './replay';

/**
 * The model-based suite of one machine: one test per walked path (replayed against the real
 * machine), then the coverage test that fails when any state or transition of the definition
 * is reached by no path.
 */
export function modelSuite<M extends AnyStateMachine>(model: MachineModel<M>): void {
  const name = model.machine.id;
  describe(`${name} (model-based)`, () => {
    const run = prepare(model as unknown as MachineModel);

    it('walks at least one path', () => {
      expect(run.paths.length).toBeGreaterThan(0);
    });

    for (const [i, path] of run.paths.entries()) {
      it(`path ${i + 1}: ${path.description}`, async () => {
        await replay(model as unknown as MachineModel, path, run.recorder);
      });
    }

    it('reaches every state and every transition of the definition', () => {
      run.recorder.assertComplete(name);
    });
  });
}
