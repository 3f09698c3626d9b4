import type { SnapshotFrom } from 'xstate';
import type { sessionMachine } from './session.machine';
import type { Shown } from '../../domain/messages';

type S = SnapshotFrom<typeof sessionMachine>;

export const selectUser = (s: S) => s.context.user;
export const selectLoggedIn = (s: S): boolean => s.matches('signedIn');
/** The server is ending the session: the buyer is still signed in until it answers. */
export const selectLoggingOut = (s: S): boolean => s.matches('loggingOut');
/** Signed in as far as the server knows: signed in, or logging out and the server has not answered yet. */
export const selectSessionLive = (s: S): boolean => s.matches('signedIn') || s.matches('loggingOut');
export const selectLoggingIn = (s: S): boolean => s.matches('loggingIn') || s.matches('solvingChallenge');
/** The browser is solving the server's login challenge (many failed logins for this account). */
export const selectSolvingChallenge = (s: S): boolean => s.matches('solvingChallenge');
export const selectLoginError = (s: S): Shown | null => s.context.loginError;
export const selectSignOutModalOpen = (s: S): boolean => s.matches('signOutRequired');
export const selectSessionExpiredModalOpen = (s: S): boolean => s.matches('sessionExpired');
/** The realtime connection is up and signed in with the user id. */
export const selectRealtimeOnline = (s: S): boolean => s.matches({ signedIn: { live: 'online' } });
