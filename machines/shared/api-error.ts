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
 * Spec section 6: an answer that refuses the session itself: off the shop's whitelist
 * (WHITELIST_USER_DENIED: the sign-out modal), or the session expired or missing (PERMISSION_DENIED,
 * a 401, UNAUTHORIZED or the message 'Unauthorized': the session-expired modal). Which calls show
 * the modal is the API client's to say (src/api/auth-events.ts, by the call); this is what counts
 * as such a refusal, one rule for it and for the flows below.
 */
export function sessionRefusal(f: { status: number; code?: string; msg?: string }): 'whitelistDenied' | 'expired' | null {
  if (f.code === 'WHITELIST_USER_DENIED') return 'whitelistDenied';
  if (f.code === 'PERMISSION_DENIED' || f.code === 'UNAUTHORIZED' || f.status === 401 || f.msg === 'Unauthorized') return 'expired';
  return null;
}

/**
 * A profile or order read refused for the session, which the session answers with a modal of its
 * own (`sessionRefusal`): the flow whose read it was says nothing more: one message, the modal's.
 */
export function refusedForSession(error: unknown): boolean {
  return sessionRefusal(failureOf(error)) !== null;
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
