import { fromPromise } from 'xstate';
import { unwrap } from '../errors';

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * A promise actor for one operation: calls the typed client, turns every failure into an
 * ApiError (unwrap), passes the actor's abort signal so a stopped actor cancels its request.
 * Each actor answers the operation's whole success body (machines read `data`, `orderId`, ...).
 */
export function operation<I, O>(operationId: string, request: (input: I, signal: AbortSignal) => Promise<FetchResult<O>>) {
  return fromPromise<O, I>(async ({ input, signal }) => unwrap(await request(input, signal), operationId));
}
