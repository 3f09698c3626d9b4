import assert from 'node:assert/strict';
import { sessionMachine } from '../../../machines/session/session.machine';
import {
  selectLoggedIn,
  selectLoginError,
  selectRealtimeOnline,
  selectSessionExpiredModalOpen,
  selectSessionLive,
  selectSignOutModalOpen,
  selectUser,
} from '../../../machines/session/session.selectors';
import { defineModel } from '../support/model';
import { student } from './fixtures';
import { MSG } from '../../../domain/messages';

export const sessionModel = defineModel({
  machine: sessionMachine,
  file: 'machines/session/session.machine.ts',
  input: { user: null },
  variants: [{ name: 'logged in on load', input: { user: student } }],
  userEvents: [
    { type: 'login.submit', username: 'somchai', password: 'secret1' },
    { type: 'logout.submit' },
    { type: 'session.established', user: student },
    { type: 'session.whitelistDenied', operation: '/private/students' },
    { type: 'session.expired', operation: '/private/orders/{orderId}' },
    { type: 'modal.confirm' },
  ],
  callbacks: { realtimeConnection: [{ type: 'realtime.connected' }, { type: 'realtime.disconnected' }] },
  outcomes: {
    login: {
      done: [{ success: true, user: student }],
      error: [
        { status: 401, code: 'UNAUTHORIZED', msg: 'wrong username or password' },
        { status: 403, code: 'WHITELIST_USER_DENIED', msg: 'not on the whitelist' },
        // many failures on this account: the server asks the browser to solve a proof-of-work first
        { status: 429, code: 'CHALLENGE_REQUIRED', msg: 'solve the challenge', result: { challenge: 'c1', difficulty: 16 } },
      ],
    },
    solveChallenge: { done: [{ nonce: 'n1' }], error: [new Error('the solver failed')] },
    logout: { done: [{ success: true }], error: [new Error('network')] },
    realtimeConnection: { error: [new Error('socket failed')] },
  },
  effects: ['notify'],
  accepts: (s) => {
    if (s.matches('signedOut')) return ['login.submit', 'session.established'];
    if (s.matches('signedIn')) return ['logout.submit', 'session.whitelistDenied', 'session.expired'];
    if (s.matches('signOutRequired') || s.matches('sessionExpired')) return ['modal.confirm'];
    return [];
  },
  check: (s, step) => {
    assert.equal(selectLoggedIn(s), s.matches('signedIn'));
    // what the header and the order pages go by: the server's session, until a logout is answered
    assert.equal(selectSessionLive(s), s.matches('signedIn') || s.matches('loggingOut'));
    if (s.matches('solvingChallenge')) assert.deepEqual(step.scripts.inputsOf('solveChallenge').at(-1), { challenge: 'c1', difficulty: 16 });
    // A solved challenge goes back with the same credentials.
    if (s.matches('loggingIn') && step.event.type === 'xstate.done.actor.solveChallenge') {
      assert.deepEqual(step.scripts.inputsOf('login').at(-1), { username: 'somchai', password: 'secret1', challenge: 'c1', nonce: 'n1' });
    }
    assert.equal(selectSignOutModalOpen(s), s.matches('signOutRequired'));
    assert.equal(selectSessionExpiredModalOpen(s), s.matches('sessionExpired'));
    if (s.matches('signedIn')) {
      assert.deepEqual(selectUser(s), student);
      assert.deepEqual(step.scripts.inputsOf('realtimeConnection').at(-1), { userId: 42 });
      if (!s.matches({ signedIn: 'offline' })) assert.ok(step.scripts.isOpen('realtimeConnection'), 'the socket is open while logged in');
    } else {
      assert.equal(step.scripts.isOpen('realtimeConnection'), false, 'the socket closes with the session');
    }
    if (s.matches({ signedIn: { live: 'online' } })) {
      assert.ok(selectRealtimeOnline(s));
      // After the connection: the sign-in with the user id.
      assert.deepEqual(step.scripts.receivedBy('realtimeConnection').at(-1), { type: 'realtime.signIn', userId: 42 });
    }
    if (step.event.type === 'xstate.done.actor.login') {
      assert.deepEqual(step.effects, [{ type: 'emitted', params: { type: 'session.loggedIn', user: student } }]);
    }
    if (step.event.type === 'xstate.error.actor.login' && s.matches('signedOut')) {
      const code = (step.event as unknown as { error: { code: string } }).error.code;
      // a challenge asked once more after MAX_CHALLENGES solved ones: the server's words, no fourth try
      if (code === 'CHALLENGE_REQUIRED') assert.equal(selectLoginError(s), 'solve the challenge');
      else assert.deepEqual(selectLoginError(s), MSG.INVALID_LOGIN_INFO);
    }
    // a logout that failed: still logged in (the cookie still works), told so, free to try again
    if (step.event.type === 'xstate.error.actor.logout' && s.matches('signedIn')) {
      assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'error', topic: 'logoutFailed', message: MSG.LOGOUT_FAILED } }]);
    }
    if (s.matches('signedOut') && (step.event.type.includes('actor.logout') || step.event.type === 'modal.confirm')) {
      assert.equal(selectUser(s), null);
      assert.deepEqual(step.effects, [{ type: 'emitted', params: { type: 'session.loggedOut' } }]);
    }
    if (s.matches('loggingIn') && step.event.type !== 'xstate.done.actor.solveChallenge') assert.deepEqual(step.scripts.inputsOf('login').at(-1), { username: 'somchai', password: 'secret1' });
  },
});
