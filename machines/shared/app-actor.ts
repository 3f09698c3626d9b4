/**
 * The placeholder of an actor the app provides (`machine.provide({ actors })`): machines declare
 * every actor in setup() with its input and output types, and never implement a call themselves.
 */
import { fromPromise } from 'xstate';

export function appActor<TOutput, TInput>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`${name} is provided by the app`);
  });
}
