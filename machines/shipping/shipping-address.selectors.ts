import type { SnapshotFrom } from 'xstate';
import type { shippingAddressMachine } from './shipping-address.machine';
import type { Shown } from '../../domain/messages';

type S = SnapshotFrom<typeof shippingAddressMachine>;

export const selectAddresses = (s: S) => s.context.addresses;
/** The form is open (a new address or an edit), or saving. */
export const selectFormOpen = (s: S): boolean => !s.matches('listing');
export const selectSaving = (s: S): boolean => s.matches('creating') || s.matches('updating');
export const selectEditingId = (s: S): number | null => s.context.editingId;
export const selectValues = (s: S) => s.context.values;
export const selectFieldError = (s: S, field: string): Shown | null => s.context.errors.find((e) => e.path === field)?.message ?? null;
export const selectFailure = (s: S): Shown | null => s.context.failure;
