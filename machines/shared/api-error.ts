/**
 * What a failed actor throws. The app's actors throw src/api's ApiError
 * ({ status, code, msg, result }); machines read it structurally (they never import src/).
 */
import { isMessageKey, MSG, type Shown } from '../../domain/messages';

export interface ApiFailure {
  status: number;
  code: string;
  msg: string;
  result?: unknown;
}

export function failureOf(error: unknown): ApiFailure {
  if (error !== null && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string') {
    const e = error as { status?: unknown; code: string; msg?: unknown; message?: unknown; result?: unknown };
    return {
      status: typeof e.status === 'number' ? e.status : 0,
      code: e.code,
      msg: typeof e.msg === 'string' ? e.msg : typeof e.message === 'string' ? e.message : e.code,
      result: e.result,
    };
  }
  return { status: 0, code: 'NETWORK_ERROR', msg: error instanceof Error ? error.message : String(error) };
}

/**
 * What to show for a failed call: the catalogue message of its code when the code is a catalogue
 * key (shown in whatever language the buyer reads next), else the server's `msg` as it is (the
 * server rendered it in the language the request asked for).
 */
export function shownOf(error: unknown): Shown {
  const f = failureOf(error);
  return isMessageKey(f.code) ? MSG[f.code] : f.msg;
}

/**
 * A profile or order read refused for the session, which the session answers with a modal of its
 * own (spec section 6; src/api/auth-events.ts tells it): off the shop's whitelist
 * (WHITELIST_USER_DENIED: the sign-out modal), the session expired (401, PERMISSION_DENIED: the
 * session-expired modal). The flow whose read it was says nothing more: one message, the modal's.
 */
export function refusedForSession(error: unknown): boolean {
  const f = failureOf(error);
  return f.status === 401 || ['WHITELIST_USER_DENIED', 'PERMISSION_DENIED', 'UNAUTHORIZED'].includes(f.code);
}

export function hasCode(error: unknown, ...codes: string[]): boolean {
  return codes.includes(failureOf(error).code);
}

/** The ValidationIssue list of a 400 answer ({ field, msg }[] in error.result) as form errors. */
export function validationIssuesOf(error: unknown): { path: string; message: Shown }[] {
  const result = failureOf(error).result;
  if (!Array.isArray(result)) return [];
  return result
    .filter((i): i is { field: string; msg: string } => typeof i?.field === 'string' && typeof i?.msg === 'string')
    .map((i) => ({ path: i.field, message: i.msg }));
}
