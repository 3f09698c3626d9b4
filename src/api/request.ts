import { unwrap } from './errors';

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * One operation of the contract as a plain call: the typed client's request, every failure turned
 * into an ApiError (unwrap). Route loaders call it directly; the machines get the same call as a
 * promise actor (`actors/call.ts`). Kept free of xstate, so the first view's loaders do not load
 * the statechart runtime before the purchase panel needs it.
 */
export interface Request<I, O> {
  readonly operationId: string;
  /** The success body, or an ApiError thrown; the signal cancels the request. */
  call: (input: I, signal?: AbortSignal) => Promise<O>;
}

export function request<I, O>(operationId: string, send: (input: I, signal: AbortSignal | undefined) => Promise<FetchResult<O>>): Request<I, O> {
  return { operationId, call: async (input: I, signal?: AbortSignal): Promise<O> => unwrap(await send(input, signal), operationId) };
}
