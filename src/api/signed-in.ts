/**
 * Who is signed in, as the server says: the root loader's user and every loader's "student or
 * visitor" come from the same answer. One navigation's loaders share one request (react-router
 * gives them the same Request), so they share one answer: the user the server wrote with the first
 * page, else one getSession call. The id kept in the browser (storage.ts, spec section 1) is made
 * to agree with it before any loader reads the cart or the purchase data; a session the server
 * knows but the browser never kept (a sign-in link, site data partly cleared) counts as the
 * student's, and a kept id the server no longer knows counts as a visitor's.
 */
import type { SessionUser } from '../../machines/shared/api';
import { takeBootData } from './boot-data';
import { sessionRequests } from './requests/session';
import { keepUserId, keptUserId } from './storage';

export interface SignedIn {
  user: SessionUser | null;
  /** False when the server could not be asked (offline): the kept id decides, as before. */
  known: boolean;
}

const asked = new WeakMap<Request, Promise<SignedIn>>();

async function ask(request: Request): Promise<SignedIn> {
  const booted = takeBootData<SessionUser | null>(request, 'user');
  if (booted !== undefined) return { user: booted, known: true };
  try {
    const me = await sessionRequests.getSession.call(undefined, request.signal);
    return { user: me.user ?? null, known: true };
  } catch {
    return { user: null, known: false };
  }
}

/** The server's answer for this navigation (asked once, shared by its loaders); the kept id follows it. */
export function signedIn(request: Request): Promise<SignedIn> {
  let answer = asked.get(request);
  if (!answer) {
    answer = ask(request).then((a) => {
      if (a.known && (a.user?.id ?? null) !== keptUserId()) keepUserId(a.user?.id ?? null);
      return a;
    });
    asked.set(request, answer);
  }
  return answer;
}

/** Whether this navigation's loaders read as a student: the server's answer, or the kept id when it could not be asked. */
export async function readsAsStudent(request: Request): Promise<boolean> {
  const a = await signedIn(request);
  return a.known ? a.user !== null : keptUserId() !== null;
}
