/**
 * The placeholder of an actor the app provides (`machine.provide({ actors })`, README): it gives
 * `setup()` the actor's typed input and output, and fails plainly when a machine runs without the
 * real one.
 */
import { fromPromise } from 'xstate';

export function providedByApp<TOutput, TInput>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`${name} is provided by the app`);
  });
}
