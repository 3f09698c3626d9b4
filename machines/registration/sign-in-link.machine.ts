/**
 * Layout 4, "send me a sign-in link": the registration was refused because the e-mail has an
 * account; the buyer asks for a link to that address (requestSignInLink, the link opens this
 * course). The view sends `link.request` and renders the state: `idle` (the button, with the last
 * failure's message), `sending`, `sent` (the button stays disabled, the note names the address).
 */
import { assign, setup } from 'xstate';
import type { Shown } from '../../domain/messages';
import type { SignInLinkRequest, SuccessResponse } from '../shared/api';
import { providedByApp } from '../shared/provided';

export interface SignInLinkInput {
  email: string;
  courseId: number;
}

export interface SignInLinkContext extends SignInLinkInput {
  /** The last failure, as the server said it (its msg) or as the error reads; null before or after a send. */
  error: Shown | null;
}

export type SignInLinkEvent = { type: 'link.request' };

/** The failure as shown: the server's msg when it sent one, else the error as text. */
export function linkErrorOf(error: unknown): Shown {
  const msg = (error as { msg?: unknown } | null)?.msg;
  return typeof msg === 'string' ? msg : String(error);
}

export const signInLinkMachine = setup({
  types: { context: {} as SignInLinkContext, events: {} as SignInLinkEvent, input: {} as SignInLinkInput },
  actors: {
    requestSignInLink: providedByApp<SuccessResponse, SignInLinkRequest>('requestSignInLink'),
  },
}).createMachine({
  id: 'signInLink',
  context: ({ input }) => ({ email: input.email, courseId: input.courseId, error: null }),
  initial: 'idle',
  states: {
    idle: { on: { 'link.request': { target: 'sending', actions: assign({ error: null }) } } },
    sending: {
      invoke: {
        id: 'requestSignInLink',
        src: 'requestSignInLink',
        input: ({ context }) => ({ email: context.email, course_id: context.courseId }),
        onDone: { target: 'sent' },
        onError: { target: 'idle', actions: assign(({ event }) => ({ error: linkErrorOf(event.error) })) },
      },
    },
    /** The link is on its way: the button stays disabled, the note says where it went. */
    sent: {},
  },
});
