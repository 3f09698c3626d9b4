/**
 * The student's session (spec sections 1, 4 and 6): log in (username and password), log out,
 * and, while logged in, the realtime connection (a callback actor the app backs with
 * socket.io-client) with its sign-in carrying the user id once connected. The API client's auth
 * events arrive as events: WHITELIST_USER_DENIED -> the sign-out modal; PERMISSION_DENIED /
 * 'Unauthorized' -> the session-expired modal. Other actors learn of a login through the emitted
 * `session.loggedIn` (the checkout continues its order); a login made elsewhere (layout-4
 * registration) is adopted with `session.established`.
 */
import { assign, emit, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import { MESSAGES } from '../../domain/messages';
import { failureOf, hasCode } from '../shared/api-error';
import type { LoginRequest, LoginResponse, SessionUser, SuccessResponse } from '../shared/api';

export interface SessionInput {
  /** The session's user when the page loads (getSession), or null. */
  user: SessionUser | null;
}

export interface SessionContext {
  user: SessionUser | null;
  loginError: string | null;
}

/** Sent to the realtime connection actor. */
export type RealtimeCommand = { type: 'realtime.signIn'; userId: number };

export type SessionEvent =
  | { type: 'login.submit'; username: string; password: string }
  | { type: 'logout.submit' }
  | { type: 'session.established'; user: SessionUser }
  | { type: 'session.whitelistDenied'; operation?: string }
  | { type: 'session.expired'; operation?: string }
  | { type: 'modal.confirm' }
  | { type: 'realtime.connected' }
  | { type: 'realtime.disconnected' };

export type SessionEmitted = { type: 'session.loggedIn'; user: SessionUser } | { type: 'session.loggedOut' };

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    emitted: {} as SessionEmitted,
  },
  actors: {
    login: fromPromise<LoginResponse, LoginRequest>(async () => {
      throw new Error('login is provided by the app');
    }),
    logout: fromPromise<SuccessResponse, void>(async () => {
      throw new Error('logout is provided by the app');
    }),
    /** The realtime socket: connects, reports realtime.connected / realtime.disconnected, and signs in on realtime.signIn. */
    realtimeConnection: fromCallback<RealtimeCommand, { userId: number }>(() => () => {}),
  },
  guards: {
    hasUser: ({ context }) => context.user !== null,
    whitelistDenied: (_, error: unknown) => hasCode(error, 'WHITELIST_USER_DENIED'),
  },
  actions: {
    keepUser: assign((_, user: SessionUser) => ({ user, loginError: null })),
    forgetUser: assign({ user: null }),
    showLoginError: assign((_, error: unknown) => ({
      loginError: failureOf(error).status === 401 ? MESSAGES.INVALID_LOGIN_INFO : failureOf(error).msg,
    })),
    announceLogin: emit(({ context }) => ({ type: 'session.loggedIn' as const, user: context.user as SessionUser })),
    announceLogout: emit({ type: 'session.loggedOut' as const }),
    signInRealtime: sendTo('realtimeConnection', ({ context }) => ({ type: 'realtime.signIn' as const, userId: (context.user as SessionUser).id })),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ user: input.user, loginError: null }),
  initial: 'resolving',
  states: {
    resolving: {
      always: [{ guard: 'hasUser', target: 'signedIn' }, { target: 'signedOut' }],
    },
    signedOut: {
      on: {
        'login.submit': 'loggingIn',
        'session.established': { target: 'signedIn', actions: { type: 'keepUser', params: ({ event }) => event.user } },
      },
    },
    loggingIn: {
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ event }) => (event.type === 'login.submit' ? { username: event.username, password: event.password } : { username: '', password: '' }),
        onDone: { target: 'signedIn', actions: [{ type: 'keepUser', params: ({ event }) => event.output.user }, 'announceLogin'] },
        onError: [
          { guard: { type: 'whitelistDenied', params: ({ event }: { event: { error: unknown } }) => event.error }, target: 'signOutRequired' },
          { target: 'signedOut', actions: { type: 'showLoginError', params: ({ event }: { event: { error: unknown } }) => event.error } },
        ],
      },
    },
    signedIn: {
      on: {
        'logout.submit': 'loggingOut',
        'session.whitelistDenied': 'signOutRequired',
        'session.expired': 'sessionExpired',
      },
      initial: 'live',
      states: {
        live: {
          invoke: {
            id: 'realtimeConnection',
            src: 'realtimeConnection',
            input: ({ context }) => ({ userId: (context.user as SessionUser).id }),
            onError: { target: 'offline' },
          },
          initial: 'connecting',
          states: {
            connecting: {
              on: { 'realtime.connected': { target: 'online', actions: 'signInRealtime' } },
            },
            online: {
              on: { 'realtime.disconnected': 'connecting' },
            },
          },
        },
        /** The realtime actor failed: the session goes on without pushes (payments still poll). */
        offline: {},
      },
    },
    loggingOut: {
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: { target: 'signedOut', actions: ['forgetUser', 'announceLogout'] },
        // Logged out locally even when the call fails: the cookie expires on its own.
        onError: { target: 'signedOut', actions: ['forgetUser', 'announceLogout'] },
      },
    },
    /** The sign-out modal (WHITELIST_USER_DENIED). */
    signOutRequired: {
      on: { 'modal.confirm': 'loggingOut' },
    },
    /** The session-expired modal (PERMISSION_DENIED / 'Unauthorized'). */
    sessionExpired: {
      entry: 'forgetUser',
      on: { 'modal.confirm': { target: 'signedOut', actions: 'announceLogout' } },
    },
  },
});
