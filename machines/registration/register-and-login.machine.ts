/**
 * Layout-4 visitor (spec section 4 "Checkout flow" step 2): the embedded registration form is
 * checked (domain validateRegistration; invalid data is notified per group: contact info, login
 * info, tax invoice), the student is registered (registerStudent, every code of spec section 8
 * mapped to its message), then logged in: a normal login when the layout-4 registration has a
 * username, otherwise a non-member login with the e-mail and the random credential (crypto, made
 * by the app; the buyer never sees it) that was also the registration's password. The output is
 * the logged-in user; the checkout then creates the order. A refusal keeps its code and, for
 * DUPLICATE_EMAIL, which account has the address (`member`: log in; `buyer`: a sign-in link by
 * e-mail), so the page can offer the way in instead of a second account.
 */
import { assign, enqueueActions, setup } from 'xstate';
import type { RegistrationConfig, RegistrationValues } from '../../domain/forms/registration';
import { validateRegistration } from '../../domain/forms/registration';
import { MSG, type Shown } from '../../domain/messages';
import { failureOf } from '../shared/api-error';
import type { LoginRequest, LoginResponse, NonMemberLoginRequest, RegistrationPayload, RegistrationResponse, SessionUser } from '../shared/api';
import { effectDefaults } from '../shared/effects';
import { registrationMessage } from './registration-errors';
import { providedByApp } from '../shared/provided';
import { builtOnFirstUse } from '../shared/built-on-first-use';

export interface RegisterAndLoginInput {
  values: RegistrationValues;
  config: RegistrationConfig;
  /** A random secret made by the app (crypto, 43 base64url characters): the non-member's password and login credential. */
  credential: string;
}

export interface RegisterAndLoginContext extends RegisterAndLoginInput {
  userId: number | null;
  user: SessionUser | null;
  message: Shown | null;
  /** The registration's refusal code (DUPLICATE_EMAIL, …), null before or without one. */
  code: string | null;
  /** DUPLICATE_EMAIL: the account that has the address. */
  account: 'member' | 'buyer' | null;
}

export type RegisterAndLoginOutput =
  | { ok: true; user: SessionUser }
  | { ok: false; reason: 'invalid' | 'rejected'; message: Shown | null; code?: string | null; account?: 'member' | 'buyer' | null; email?: string };

/** DUPLICATE_EMAIL's `result.account` (the server says which account has the address). */
export function duplicateAccountOf(error: unknown): 'member' | 'buyer' | null {
  const f = failureOf(error);
  if (f.code !== 'DUPLICATE_EMAIL' || f.result === null || typeof f.result !== 'object') return null;
  const account = (f.result as { account?: unknown }).account;
  return account === 'member' || account === 'buyer' ? account : null;
}

/**
 * The account was made but its login did not go through (no answer, the server busy): never "login
 * information is invalid" (the buyer just chose it). A member is asked to log in with what they
 * chose (the login form is beside the registration); a buyer without an account, whose credential
 * the page made, to try again.
 */
const MEMBER_NOT_LOGGED_IN = { kind: 'error', topic: 'fail', message: MSG.REGISTERED_LOGIN_FAILED } as const;
const BUYER_NOT_LOGGED_IN = { kind: 'error', topic: 'fail', message: MSG.REGISTERED_BUYER_LOGIN_FAILED } as const;

const withUsername = (context: RegisterAndLoginContext): boolean => context.config.withLogin === true;

function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/** The registration payload; prices and flags the server decides are not sent. */
export function registrationPayload(context: RegisterAndLoginContext): RegistrationPayload {
  const v = context.values;
  const group = v.studentGroupKpi === null || v.studentGroupKpi === undefined || v.studentGroupKpi === '' ? null : Number(v.studentGroupKpi);
  const image = Array.isArray(v.displayImgUrl) ? v.displayImgUrl[0] : v.displayImgUrl;
  const tax = v.is_require_tax_invoice === true || v.is_require_tax_invoice === 1 || v.is_require_tax_invoice === '1';
  return {
    firstname: (v.firstname ?? '').trim(),
    lastname: (v.lastname ?? '').trim(),
    email: (v.email ?? '').trim(),
    tel: text(v.tel),
    nickname: text(v.nickname),
    address: text(v.address),
    ...(withUsername(context) ? { username: (v.username ?? '').trim(), password: v.password ?? '' } : { password: context.credential }),
    customLabel: typeof v.customLabel === 'string' ? v.customLabel : JSON.stringify(v.customLabel ?? []),
    studentGroupKpi: group,
    displayImgUrl: typeof image === 'string' ? image : null,
    is_require_tax_invoice: tax,
    ...(tax
      ? {
          tax_person_type: v.tax_person_type === 'juristic_person' ? 'juristic_person' : 'normal_person',
          tax_name_one: text(v.tax_name_one),
          tax_name_two: text(v.tax_name_two),
          tax_payer_identification_no: text(v.tax_payer_identification_no),
          tax_address: text(v.tax_address),
          tax_is_delivery_by_tax_address: v.tax_is_delivery_by_tax_address !== false,
          tax_delivery_address: text(v.tax_delivery_address),
          tax_company_certificate: typeof v.tax_company_certificate === 'string' ? v.tax_company_certificate : null,
        }
      : {}),
    is_registration_layout_four: true,
  };
}

export const registerAndLoginMachine = builtOnFirstUse(() =>
  setup({
    types: {
      context: {} as RegisterAndLoginContext,
      input: {} as RegisterAndLoginInput,
      output: {} as RegisterAndLoginOutput,
    },
    actors: {
      registerStudent: providedByApp<RegistrationResponse, RegistrationPayload>('registerStudent'),
      login: providedByApp<LoginResponse, LoginRequest>('login'),
      loginNonMember: providedByApp<LoginResponse, NonMemberLoginRequest>('loginNonMember'),
    },
    guards: {
      formValid: ({ context }) => validateRegistration(context.values, context.config).ok,
      withUsername: ({ context }) => withUsername(context),
    },
    actions: {
      ...effectDefaults,
      keepMessage: assign((_, message: Shown) => ({ message })),
      keepUser: assign((_, user: SessionUser) => ({ user })),
    },
  }).createMachine({
    id: 'registerAndLogin',
    context: ({ input }) => ({ ...input, userId: null, user: null, message: null, code: null, account: null }),
    initial: 'validating',
    states: {
      validating: {
        always: [
          { guard: 'formValid', target: 'registering' },
          {
            target: 'invalid',
            // Spec 5: invalid data is notified per group (contact info, login info, tax invoice).
            actions: enqueueActions(({ context, enqueue }) => {
              for (const g of validateRegistration(context.values, context.config).groups) {
                enqueue({ type: 'notify', params: { kind: 'error', topic: 'invalidData', title: g.message, message: g.errors[0]?.message ?? g.message } });
              }
            }),
          },
        ],
      },
      registering: {
        invoke: {
          id: 'registerStudent',
          src: 'registerStudent',
          input: ({ context }) => registrationPayload(context),
          onDone: { target: 'choosingLogin', actions: assign({ userId: ({ event }) => event.output.userId }) },
          onError: {
            target: 'rejected',
            actions: [
              { type: 'keepMessage', params: ({ event }) => registrationMessage(failureOf(event.error).code) },
              assign({ code: ({ event }) => failureOf(event.error).code, account: ({ event }) => duplicateAccountOf(event.error) }),
              { type: 'notify', params: ({ event }) => ({ kind: 'error', topic: 'invalidData', message: registrationMessage(failureOf(event.error).code) }) },
            ],
          },
        },
      },
      choosingLogin: {
        always: [{ guard: 'withUsername', target: 'loggingIn' }, { target: 'loggingInNonMember' }],
      },
      loggingIn: {
        invoke: {
          id: 'login',
          src: 'login',
          input: ({ context }) => ({ username: (context.values.username ?? '').trim(), password: context.values.password ?? '' }),
          onDone: { target: 'registered', actions: { type: 'keepUser', params: ({ event }) => event.output.user } },
          onError: { target: 'rejected', actions: [{ type: 'keepMessage', params: MSG.REGISTERED_LOGIN_FAILED }, { type: 'notify', params: MEMBER_NOT_LOGGED_IN }] },
        },
      },
      loggingInNonMember: {
        invoke: {
          id: 'loginNonMember',
          src: 'loginNonMember',
          input: ({ context }) => ({ email: (context.values.email ?? '').trim(), credential: context.credential }),
          onDone: { target: 'registered', actions: { type: 'keepUser', params: ({ event }) => event.output.user } },
          onError: { target: 'rejected', actions: [{ type: 'keepMessage', params: MSG.REGISTERED_BUYER_LOGIN_FAILED }, { type: 'notify', params: BUYER_NOT_LOGGED_IN }] },
        },
      },
      registered: { type: 'final' },
      rejected: { type: 'final' },
      invalid: { type: 'final' },
    },
    output: ({ context }) =>
      context.user
        ? { ok: true, user: context.user }
        : context.code
          ? { ok: false, reason: 'rejected', message: context.message, code: context.code, account: context.account, email: (context.values.email ?? '').trim() }
          : { ok: false, reason: context.message ? 'rejected' : 'invalid', message: context.message },
  }),
);
