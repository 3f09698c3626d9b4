import assert from 'node:assert/strict';
import { duplicateAccountOf, registerAndLoginMachine } from '../../../machines/registration/register-and-login.machine';
import { failureOf } from '../../../machines/shared/api-error';
import { MSG } from '../../../domain/messages';
import { REGISTRATION_CODES, REGISTRATION_MESSAGES } from '../../../machines/registration/registration-errors';
import { selectRegistering, selectRegistrationMessage } from '../../../machines/registration/register-and-login.selectors';
import { defineModel } from '../support/model';
import { student } from './fixtures';

const contact = { firstname: 'สมชาย', lastname: 'ใจดี', email: 'somchai@example.com', tel: '0812345678' };
const withLogin = { ...contact, username: 'somchai', password: 'secret1', confirm_password: 'secret1' };
const CREDENTIAL = 'q3Zk0v8WlU2m6oTz4yB1cR9xN5aJ7dE0fG2hK4sL6pQ';
const codes = [
  ...REGISTRATION_CODES.map((code) => ({ status: code.startsWith('DUPLICATE') ? 409 : 400, code, msg: code })),
  // One identity per e-mail: the server says which account has the address.
  { status: 409, code: 'DUPLICATE_EMAIL', msg: 'DUPLICATE_EMAIL', result: { account: 'buyer' } },
  { status: 409, code: 'DUPLICATE_EMAIL', msg: 'DUPLICATE_EMAIL', result: { account: 'member' } },
];

export const registerAndLoginModel = defineModel({
  machine: registerAndLoginMachine,
  file: 'machines/registration/register-and-login.machine.ts',
  input: { values: withLogin, config: { withLogin: true }, credential: CREDENTIAL },
  variants: [
    { name: 'non-member (no username)', input: { values: contact, config: {}, credential: CREDENTIAL } },
    { name: 'invalid form', input: { values: { ...withLogin, email: '', password: 'ab', confirm_password: 'xy' }, config: { withLogin: true }, credential: CREDENTIAL } },
  ],
  userEvents: [],
  outcomes: {
    registerStudent: { done: [{ success: true, createStudent: true, userId: 42 }], error: [...codes, new Error('network')] },
    login: { done: [{ success: true, user: student }], error: [{ status: 401, code: 'UNAUTHORIZED', msg: 'no' }] },
    loginNonMember: { done: [{ success: true, user: { ...student, username: null, is_non_member: true } }], error: [{ status: 401, code: 'UNAUTHORIZED', msg: 'no' }] },
  },
  effects: ['notify'],
  accepts: () => [],
  check: (s, step) => {
    assert.equal(selectRegistering(s), s.status === 'active');
    if (s.matches('registering')) {
      const payload = step.scripts.inputsOf('registerStudent').at(-1) as Record<string, unknown>;
      assert.equal(payload.is_registration_layout_four, true);
      if (s.context.config.withLogin) {
        assert.equal(payload.username, 'somchai');
        assert.equal(payload.password, 'secret1');
      } else {
        assert.equal(payload.username, undefined);
        assert.equal(payload.password, CREDENTIAL, 'a non-member registers with the timestamp as password');
      }
    }
    if (s.matches('loggingIn')) assert.deepEqual(step.scripts.inputsOf('login').at(-1), { username: 'somchai', password: 'secret1' });
    if (s.matches('loggingInNonMember')) assert.deepEqual(step.scripts.inputsOf('loginNonMember').at(-1), { email: 'somchai@example.com', credential: CREDENTIAL });
    if (s.matches('invalid')) {
      assert.deepEqual(s.output, { ok: false, reason: 'invalid', message: null });
      // One notification per invalid group: contact info, then login info.
      assert.deepEqual(
        step.effects.map((e) => (e.params as { title: unknown }).title),
        [MSG.INVALID_CONTACT_INFO, MSG.INVALID_LOGIN_INFO],
      );
    }
    if (s.matches('rejected') && step.event.type === 'xstate.error.actor.registerStudent') {
      const code = (step.event as unknown as { error: { code?: string } }).error.code;
      const expected = code && code in REGISTRATION_MESSAGES ? REGISTRATION_MESSAGES[code as keyof typeof REGISTRATION_MESSAGES] : REGISTRATION_MESSAGES.INPUT_ERROR;
      assert.equal(selectRegistrationMessage(s), expected);
      assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'error', topic: 'invalidData', message: expected } }]);
      // The refusal keeps its code and, for DUPLICATE_EMAIL, which account has the address (the page offers the way in).
      const error = (step.event as unknown as { error: unknown }).error;
      assert.deepEqual(s.output, { ok: false, reason: 'rejected', message: expected, code: failureOf(error).code, account: duplicateAccountOf(error), email: (s.context.values.email ?? '').trim() });
    }
    if (s.matches('registered')) assert.equal((s.output as { ok: boolean }).ok, true);
    // made, but its login did not go through: said as that, never "login information is invalid"
    if (step.event.type === 'xstate.error.actor.login' || step.event.type === 'xstate.error.actor.loginNonMember') {
      const message = step.event.type === 'xstate.error.actor.login' ? MSG.REGISTERED_LOGIN_FAILED : MSG.REGISTERED_BUYER_LOGIN_FAILED;
      assert.ok(s.matches('rejected'));
      assert.equal(selectRegistrationMessage(s), message);
      assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'error', topic: 'fail', message } }]);
    }
  },
});
