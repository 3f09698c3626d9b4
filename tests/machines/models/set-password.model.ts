import assert from 'node:assert/strict';
import type { EventObject } from 'xstate';
import { passwordErrorsOf, setPasswordMachine } from '../../../machines/registration/set-password.machine';
import { selectPasswordErrors, selectPasswordSaved, selectPasswordSaving } from '../../../machines/registration/set-password.selectors';
import { MSG } from '../../../domain/messages';
import { defineModel } from '../support/model';

const errorOf = (e: EventObject) => (e as EventObject & { error?: unknown }).error;

export const setPasswordModel = defineModel({
  machine: setPasswordMachine,
  file: 'machines/registration/set-password.machine.ts',
  userEvents: [{ type: 'password.submit', username: ' somying ', password: 'secret1234' }],
  outcomes: {
    setStudentPassword: {
      done: [{ success: true }],
      error: [
        { status: 409, code: 'DUPLICATE_USERNAME', msg: 'taken' },
        { status: 400, code: 'INVALID_FORMAT_USERNAME', msg: 'bad' },
        { status: 400, code: 'INPUT_ERROR', msg: 'invalid', result: [{ field: 'password', msg: 'at least 8 characters' }] },
        new Error('network'),
      ],
    },
  },
  accepts: (s) => (s.matches('idle') ? ['password.submit'] : []),
  check: (s, step) => {
    assert.equal(selectPasswordSaving(s), s.matches('saving'));
    // The password is kept only while it is being sent.
    assert.equal(s.context.password, s.matches('saving') ? 'secret1234' : '');
    if (s.matches('saving')) assert.deepEqual(step.scripts.inputsOf('setStudentPassword').at(-1), { username: 'somying', password: 'secret1234' });
    assert.equal(selectPasswordSaved(s), s.matches('saved') ? 'somying' : null);
    if (step.event.type === 'xstate.error.actor.setStudentPassword') {
      const error = errorOf(step.event) as { code?: string };
      const errors = selectPasswordErrors(s);
      assert.deepEqual(errors, passwordErrorsOf(error));
      // By key: a code of the catalogue is its message on its field; the server's issues field by field.
      if (error.code === 'DUPLICATE_USERNAME') assert.deepEqual(errors, [{ path: 'username', message: MSG.DUPLICATE_USERNAME }]);
      if (error.code === 'INVALID_FORMAT_USERNAME') assert.deepEqual(errors, [{ path: 'username', message: MSG.INVALID_FORMAT_USERNAME }]);
      if (error.code === 'INPUT_ERROR') assert.deepEqual(errors, [{ path: 'password', message: 'at least 8 characters' }]);
      if (!error.code) assert.equal(errors[0]?.path, 'password');
    }
    if (step.event.type === 'password.submit') assert.deepEqual(selectPasswordErrors(s), []);
  },
});
