import type { SnapshotFrom } from 'xstate';
import type { Shown } from '../../domain/messages';
import type { signInLinkMachine } from './sign-in-link.machine';

type S = SnapshotFrom<typeof signInLinkMachine>;

/** The button shows a spinner while the link is asked for. */
export const selectLinkSending = (s: S): boolean => s.matches('sending');
/** The link was sent: the button stays disabled and the note names the address. */
export const selectLinkSent = (s: S): boolean => s.matches('sent');
/** The last failure's message (shown under the button), else null. */
export const selectLinkError = (s: S): Shown | null => s.context.error;
