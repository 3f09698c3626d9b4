/**
 * The student's session (spec sections 1, 4 and 6): log in (username and password), log out,
 * and, while logged in, the realtime connection (a callback actor the app backs with
 * socket.io-client) with its sign-in carrying the user id once connected. The API client's auth
 * events arrive as events: WHITELIST_USER_DENIED -> the sign-out modal; PERMISSION_DENIED /
 * 'Unauthorized' -> the session-expired modal. Other actors learn of a login through the emitted
 * `session.loggedIn` (the checkout continues its order); a login made elsewhere (layout-4
 * registration) is adopted with `session.established`.
 * An account with many failed logins answers 429 CHALLENGE_REQUIRED: the machine keeps the
 * credentials, solves the challenge (solvingChallenge, the app's proof-of-work actor) and logs in
 * again with it; at most MAX_CHALLENGES per login.
 */
import { assign, emit, fromCallback, sendTo, setup } from 'xstate';
import { MSG, type Shown } from '../../domain/messages';
import { failureOf, hasCode, shownOf } from '../shared/api-error';
import type { LoginRequest, LoginResponse, SessionUser, SuccessResponse } from '../shared/api';
import { providedByApp } from '../shared/provided';
import { effectDefaults } from '../shared/effects';

export interface SessionInput {
  /** The session's user when the page loads (getSession), or null. */
  user: SessionUser | null;
}

/** A login challenge of the server (429 CHALLENGE_REQUIRED): a proof-of-work to solve. */
export interface LoginChallenge {
  challenge: string;
  difficulty: number;
}

export interface SessionContext {
  user: SessionUser | null;
  loginError: Shown | null;
  /** The login being made: kept while a challenge is solved, then sent again with it. */
  credentials: { username: string; password: string } | null;
  /** The challenge to solve, then its solution. */
  challenge: (LoginChallenge & { nonce?: string }) | null;
  /** Challenges solved for this login (a server asking again and again is given up on). */
  challengesSolved: number;
}

/** Challenges solved for one login before giving up (each answer gives a fresh one). */
const MAX_CHALLENGES = 3;

function challengeOf(error: unknown): LoginChallenge | null {
  const f = failureOf(error);
  const r = f.result as { challenge?: unknown; difficulty?: unknown } | undefined;
  if (f.code !== 'CHALLENGE_REQUIRED' || !r || typeof r.challenge !== 'string' || typeof r.difficulty !== 'number') return null;
  return { challenge: r.challenge, difficulty: r.difficulty };
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
    login: providedByApp<LoginResponse, LoginRequest>('login'),
    logout: providedByApp<SuccessResponse, void>('logout'),
    /** Solves a login challenge: a nonce such that SHA-256(challenge + ":" + nonce) starts with `difficulty` zero bits (src/api/pow.ts). */
    solveChallenge: providedByApp<{ nonce: string }, LoginChallenge>('solveChallenge'),
    /** The realtime socket: connects, reports realtime.connected / realtime.disconnected, and signs in on realtime.signIn. */
    realtimeConnection: fromCallback<RealtimeCommand, { userId: number }>(() => () => {}),
  },
  guards: {
    hasUser: ({ context }) => context.user !== null,
    whitelistDenied: (_, error: unknown) => hasCode(error, 'WHITELIST_USER_DENIED'),
    /** The server asks for a challenge, and this login has not solved too many already. */
    challengeAsked: ({ context }, error: unknown) => challengeOf(error) !== null && context.challengesSolved < MAX_CHALLENGES,
  },
  actions: {
    keepUser: assign((_, user: SessionUser) => ({ user, loginError: null, credentials: null, challenge: null, challengesSolved: 0 })),
    startLogin: assign((_, c: { username: string; password: string }) => ({ credentials: c, challenge: null, challengesSolved: 0, loginError: null })),
    keepChallenge: assign((_, error: unknown) => ({ challenge: challengeOf(error) })),
    keepSolution: assign(({ context }, nonce: string) => ({ challenge: context.challenge ? { ...context.challenge, nonce } : null, challengesSolved: context.challengesSolved + 1 })),
    showChallengeFailed: assign({ loginError: MSG.LOGIN_CHALLENGE_REQUIRED, credentials: null, challenge: null }),
    forgetUser: assign({ user: null }),
    showLoginError: assign((_, error: unknown) => ({
      loginError: failureOf(error).status === 401 ? MSG.INVALID_LOGIN_INFO : shownOf(error),
      credentials: null,
      challenge: null,
    })),
    announceLogin: emit(({ context }) => ({ type: 'session.loggedIn' as const, user: context.user as SessionUser })),
    announceLogout: emit({ type: 'session.loggedOut' as const }),
    ...effectDefaults,
    signInRealtime: sendTo('realtimeConnection', ({ context }) => ({ type: 'realtime.signIn' as const, userId: (context.user as SessionUser).id })),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ user: input.user, loginError: null, credentials: null, challenge: null, challengesSolved: 0 }),
  initial: 'resolving',
  states: {
    resolving: {
      always: [{ guard: 'hasUser', target: 'signedIn' }, { target: 'signedOut' }],
    },
    signedOut: {
      on: {
        'login.submit': { target: 'loggingIn', actions: { type: 'startLogin', params: ({ event }) => ({ username: event.username, password: event.password }) } },
        'session.established': { target: 'signedIn', actions: { type: 'keepUser', params: ({ event }) => event.user } },
      },
    },
    loggingIn: {
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ context }) => ({
          username: context.credentials?.username ?? '',
          password: context.credentials?.password ?? '',
          ...(context.challenge?.nonce !== undefined ? { challenge: context.challenge.challenge, nonce: context.challenge.nonce } : {}),
        }),
        onDone: { target: 'signedIn', actions: [{ type: 'keepUser', params: ({ event }) => event.output.user }, 'announceLogin'] },
        onError: [
          { guard: { type: 'whitelistDenied', params: ({ event }: { event: { error: unknown } }) => event.error }, target: 'signOutRequired' },
          // Many failed logins for this account: solve the server's challenge, then log in again.
          {
            guard: { type: 'challengeAsked', params: ({ event }: { event: { error: unknown } }) => event.error },
            target: 'solvingChallenge',
            actions: { type: 'keepChallenge', params: ({ event }: { event: { error: unknown } }) => event.error },
          },
          { target: 'signedOut', actions: { type: 'showLoginError', params: ({ event }: { event: { error: unknown } }) => event.error } },
        ],
      },
    },
    solvingChallenge: {
      invoke: {
        id: 'solveChallenge',
        src: 'solveChallenge',
        input: ({ context }) => ({ challenge: context.challenge?.challenge ?? '', difficulty: context.challenge?.difficulty ?? 0 }),
        onDone: { target: 'loggingIn', actions: { type: 'keepSolution', params: ({ event }) => event.output.nonce } },
        onError: { target: 'signedOut', actions: 'showChallengeFailed' },
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
        // The call failed (no connection, the server down): the session cookie (httpOnly, out of the
        // page's reach) still works, so the buyer is told so and stays logged in, free to try again
        // (a page that said "logged out" would be logged in again at the next load). A sign-out asked
        // for by a refused login (whitelist) had no session to keep: it ends signed out.
        onError: [
          { guard: 'hasUser', target: 'signedIn', actions: { type: 'notify', params: { kind: 'error', topic: 'logoutFailed', message: MSG.LOGOUT_FAILED } } },
          { target: 'signedOut', actions: 'announceLogout' },
        ],
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
