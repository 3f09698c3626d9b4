import { fromPromise } from 'xstate';
import { unwrap } from '../errors';

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** One operation of the contract, as a promise actor for the machines and as a plain call for the loaders. */
export type Operation<I, O> = ReturnType<typeof fromPromise<O, I>> & {
  /** The same request outside a machine (a route loader): the success body, or an ApiError thrown. */
  call: (input: I, signal?: AbortSignal) => Promise<O>;
};

/**
 * A promise actor for one operation: calls the typed client, turns every failure into an
 * ApiError (unwrap), passes the actor's abort signal so a stopped actor cancels its request.
 * Each actor answers the operation's whole success body (machines read `data`, `orderId`, ...).
 * Loaders call the same request with `.call(input, signal)`: one API layer for both.
 */
export function operation<I, O>(operationId: string, request: (input: I, signal: AbortSignal | undefined) => Promise<FetchResult<O>>): Operation<I, O> {
  const call = async (input: I, signal?: AbortSignal): Promise<O> => unwrap(await request(input, signal), operationId);
  return Object.assign(
    fromPromise<O, I>(({ input, signal }) => call(input, signal)),
    { call },
  );
}
