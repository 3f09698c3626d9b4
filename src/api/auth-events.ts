/**
 * Auth failures of spec section 6, surfaced as events for the session machine (not as UI side
 * effects inside the client): the app subscribes and forwards them to the session actor.
 */
import { sessionRefusal } from '../../machines/shared/api-error';

export type AuthEvent =
  | { type: 'session.whitelistDenied'; operation: string }
  | { type: 'session.expired'; operation: string };

export type AuthEventListener = (event: AuthEvent) => void;

export interface AuthEventBus {
  emit(event: AuthEvent): void;
  subscribe(listener: AuthEventListener): () => void;
}

export function createAuthEventBus(): AuthEventBus {
  const listeners = new Set<AuthEventListener>();
  return {
    emit(event) {
      for (const listener of [...listeners]) listener(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Spec section 6: where an auth failure is shown.
 * - profile and order detail: WHITELIST_USER_DENIED -> sign-out modal; PERMISSION_DENIED or the
 *   message 'Unauthorized' -> session-expired modal;
 * - upload and pricing calls: Unauthorized -> session-expired modal;
 * - elsewhere: only logged.
 */
const PROFILE_AND_ORDER = new Set(['/private/students', '/private/orders/{orderId}', '/public/auth/login', '/public/auth/login/non-member']);
const UPLOAD_AND_PRICING = new Set(['/api/home/test_upload', '/public/cart/getallpriecingplan', '/api/storage/details']);

export function classifyAuthFailure(
  schemaPath: string,
  status: number,
  code: string | undefined,
  msg: string | undefined,
): AuthEvent['type'] | 'logged' | null {
  const refusal = sessionRefusal({ status, code, msg });
  if (refusal === 'whitelistDenied') return PROFILE_AND_ORDER.has(schemaPath) ? 'session.whitelistDenied' : 'logged';
  if (refusal === 'expired') return PROFILE_AND_ORDER.has(schemaPath) || UPLOAD_AND_PRICING.has(schemaPath) ? 'session.expired' : 'logged';
  return null;
}
