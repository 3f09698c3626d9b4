/**
 * Errors a handler throws on purpose. The central error handler turns them into the contract's
 * envelope `{ success: false, error: { code, msg, result? } }` with the given HTTP status.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly result: unknown;
  /** Extra top-level fields some legacy answers carry next to `error` (e.g. createStudent: false). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(status: number, code: string, msg: string, result?: unknown, extra?: Record<string, unknown>) {
    super(msg);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.result = result;
    this.extra = extra;
  }
}

export const badRequest = (code: string, msg: string, result?: unknown) => new ApiError(400, code, msg, result);
export const notFound = (msg = 'Not found', code = 'NOT_FOUND') => new ApiError(404, code, msg);
export const conflict = (code: string, msg: string, result?: unknown) => new ApiError(409, code, msg, result);
