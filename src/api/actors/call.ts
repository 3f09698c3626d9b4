import { fromPromise } from 'xstate';
import { request, type Request } from '../request';

/** One operation of the contract, as a promise actor for the machines and as a plain call. */
export type Operation<I, O> = ReturnType<typeof fromPromise<O, I>> & {
  /** The same request outside a machine: the success body, or an ApiError thrown. */
  call: (input: I, signal?: AbortSignal) => Promise<O>;
};

/**
 * The promise actor of a request (`../request.ts`): the actor's abort signal is passed on, so a
 * stopped actor cancels its request. Each actor answers the operation's whole success body
 * (machines read `data`, `orderId`, ...).
 */
export function actorOf<I, O>(req: Request<I, O>): Operation<I, O> {
  return Object.assign(
    fromPromise<O, I>(({ input, signal }) => req.call(input, signal)),
    { call: req.call },
  );
}

/** The actors of a table of requests, by the same names. */
export function actorsOf<T extends Record<string, Request<never, unknown>>>(requests: T): { [K in keyof T]: T[K] extends Request<infer I, infer O> ? Operation<I, O> : never } {
  return Object.fromEntries(Object.entries(requests).map(([name, req]) => [name, actorOf(req as Request<unknown, unknown>)])) as never;
}

/** A request and its actor in one step, for an area with no loader. */
export function operation<I, O>(operationId: string, send: Parameters<typeof request<I, O>>[1]): Operation<I, O> {
  return actorOf(request(operationId, send));
}
