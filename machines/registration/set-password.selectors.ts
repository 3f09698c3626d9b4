import type { SnapshotFrom } from 'xstate';
import type { FieldError } from '../../domain/forms/common';
import type { setPasswordMachine } from './set-password.machine';

type S = SnapshotFrom<typeof setPasswordMachine>;

/** The save button shows a spinner while the password is saved. */
export const selectPasswordSaving = (s: S): boolean => s.matches('saving');
/** The username chosen once saved, else null (the form is shown). */
export const selectPasswordSaved = (s: S): string | null => (s.matches('saved') ? s.context.username : null);
export const selectPasswordErrors = (s: S): readonly FieldError[] => s.context.errors;
