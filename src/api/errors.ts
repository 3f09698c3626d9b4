import type { components } from '../../generated/api';

export type ErrorCode = components['schemas']['ErrorCode'];
/** Codes the client makes itself: the request never got an answer in the contract's shape. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'BAD_RESPONSE';

export interface ApiErrorInit {
  status: number;
  code: ErrorCode | ClientErrorCode;
  msg: string;
  result?: unknown;
  operation?: string;
}

/**
 * Every failed call becomes one of these: HTTP status >= 400, a body with `success: false`,
 * a body that is not the contract's JSON, or a network failure. Never a silent success.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  readonly msg: string;
  readonly result: unknown;
  readonly operation: string | undefined;

  constructor(init: ApiErrorInit) {
    super(`${init.operation ? `${init.operation}: ` : ''}${init.code} ${init.msg}`);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.msg = init.msg;
    this.result = init.result;
    this.operation = init.operation;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

interface Envelope {
  success?: unknown;
  error?: { code?: unknown; msg?: unknown; result?: unknown } | null;
}

function asEnvelope(body: unknown): Envelope | undefined {
  return body !== null && typeof body === 'object' ? (body as Envelope) : undefined;
}

/** Reads the error envelope `{ success: false, error: { code, msg, result } }` if the body is one. */
export function errorFromBody(status: number, body: unknown, operation?: string): ApiError {
  const env = asEnvelope(body);
  const code = typeof env?.error?.code === 'string' ? env.error.code : status >= 500 ? 'INTERNAL_ERROR' : 'BAD_RESPONSE';
  const msg = typeof env?.error?.msg === 'string' ? env.error.msg : `HTTP ${status}`;
  return new ApiError({ status, code: code as ApiError['code'], msg, result: env?.error?.result, operation });
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Turns an openapi-fetch result into its data or a thrown ApiError. Actors call every operation
 * through this, so a 4xx/5xx or a legacy `success: false` body can never pass as a success.
 */
export function unwrap<T>(result: FetchResult<T>, operation?: string): T {
  const { response } = result;
  if (!response.ok || result.error !== undefined) {
    throw errorFromBody(response.status, result.error, operation);
  }
  const env = asEnvelope(result.data);
  if (env && env.success === false) {
    throw errorFromBody(response.status, result.data, operation);
  }
  return result.data as T;
}
