/**
 * Layout 4: a buyer without a password (signed in by an e-mailed link, a non-member) may choose a
 * username and password (setStudentPassword). The checkout runs this machine as its `setPassword`
 * child for the page's life; the view sends `password.submit` with the two values and renders the
 * state: `idle` (the form, with the last refusal's field errors), `saving`, `saved` (the username
 * chosen). A refusal becomes field errors by key: the server's per-field issues when it sent them,
 * else the code's catalogue message on the username (DUPLICATE_USERNAME, INVALID_FORMAT_USERNAME)
 * or the password field.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { FieldError } from '../../domain/forms/common';
import { failureOf, shownOf, validationIssuesOf } from '../shared/api-error';
import type { SetPasswordRequest, SuccessResponse } from '../shared/api';

export interface SetPasswordContext {
  /** What the buyer sent last (trimmed username). */
  username: string;
  password: string;
  /** The last refusal's field errors (empty before or after a save). */
  errors: FieldError[];
}

export type SetPasswordEvent = { type: 'password.submit'; username: string; password: string };

const USERNAME_CODES = ['DUPLICATE_USERNAME', 'INVALID_FORMAT_USERNAME'];

/** The refusal as field errors: the server's issues, else the code's message on its field. */
export function passwordErrorsOf(error: unknown): FieldError[] {
  const issues = validationIssuesOf(error);
  if (issues.length > 0) return issues;
  return [{ path: USERNAME_CODES.includes(failureOf(error).code) ? 'username' : 'password', message: shownOf(error) }];
}

export const setPasswordMachine = setup({
  types: {
    context: {} as SetPasswordContext,
    events: {} as SetPasswordEvent,
  },
  actors: {
    setStudentPassword: fromPromise<SuccessResponse, SetPasswordRequest>(async () => {
      throw new Error('setStudentPassword is provided by the app');
    }),
  },
}).createMachine({
  id: 'setPassword',
  context: { username: '', password: '', errors: [] },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'password.submit': {
          target: 'saving',
          actions: assign(({ event }) => ({ username: event.username.trim(), password: event.password, errors: [] })),
        },
      },
    },
    saving: {
      invoke: {
        id: 'setStudentPassword',
        src: 'setStudentPassword',
        input: ({ context }) => ({ username: context.username, password: context.password }),
        onDone: { target: 'saved', actions: assign({ password: '' }) },
        onError: { target: 'idle', actions: assign(({ event }) => ({ password: '', errors: passwordErrorsOf(event.error) })) },
      },
    },
    /** The buyer has a username and password now; the form gives way to a note saying which username. */
    saved: {},
  },
});
