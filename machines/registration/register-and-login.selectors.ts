import type { SnapshotFrom } from 'xstate';
import type { registerAndLoginMachine } from './register-and-login.machine';
import type { Shown } from '../../domain/messages';

type S = SnapshotFrom<typeof registerAndLoginMachine>;

/** The register button shows a spinner while registering and logging in. */
export const selectRegistering = (s: S): boolean => s.status === 'active';
export const selectRegistrationMessage = (s: S): Shown | null => s.context.message;
