/**
 * The buyer's shipping addresses at checkout (books need one): the list, a new address, an edit
 * of one, each checked by the domain's form (validateShippingAddress) before it is sent; the saved
 * address is announced (addressSaved) so the page chooses it in the cart. A refused save stays in
 * the form with the server's message, the values kept.
 */
import { assign, setup } from 'xstate';
import type { components } from '../../generated/api';
import type { FieldError } from '../../domain/forms/common';
import { validateShippingAddress, type ShippingAddressValues } from '../../domain/forms/shipping-address';
import { MSG, type Shown } from '../../domain/messages';
import { failureOf, shownOf } from '../shared/api-error';
import { effectDefaults } from '../shared/effects';
import { providedByApp } from '../shared/provided';

export type ShippingAddress = components['schemas']['ShippingAddress'];
export type ShippingAddressCreate = components['schemas']['ShippingAddressCreate'];
type SavedAddress = { success: true; data: ShippingAddress };

export interface ShippingAddressInput {
  addresses: ShippingAddress[];
}

export interface ShippingAddressContext {
  addresses: ShippingAddress[];
  /** The address being edited; null for a new one. */
  editingId: number | null;
  values: ShippingAddressValues;
  errors: FieldError[];
  /** The server refused the save (its message). */
  failure: Shown | null;
}

export type ShippingAddressEvent =
  | { type: 'address.new' }
  | { type: 'address.edit'; addressId: number }
  | { type: 'form.update'; values: ShippingAddressValues }
  | { type: 'form.submit' }
  | { type: 'form.cancel' };

const EMPTY: ShippingAddressValues = { name: '', tel: '', address: '', sub_district: '', district: '', province: '', postcode: '' };

function valuesOf(a: ShippingAddress): ShippingAddressValues {
  return { name: a.name, tel: a.tel, address: a.address, sub_district: a.sub_district, district: a.district, province: a.province, postcode: a.postcode };
}

function bodyOf(values: ShippingAddressValues): ShippingAddressCreate {
  const checked = validateShippingAddress(values);
  if (!checked.ok) throw new Error('an invalid address is never sent');
  return checked.data;
}

export const shippingAddressMachine = setup({
  types: {
    context: {} as ShippingAddressContext,
    events: {} as ShippingAddressEvent,
    input: {} as ShippingAddressInput,
  },
  actors: {
    createShippingAddress: providedByApp<SavedAddress, ShippingAddressCreate>('createShippingAddress'),
    updateShippingAddress: providedByApp<SavedAddress, { addressId: number; body: ShippingAddressCreate }>('updateShippingAddress'),
  },
  guards: {
    known: ({ context }, addressId: number) => context.addresses.some((a) => a.id === addressId),
    valid: ({ context }) => validateShippingAddress(context.values).ok,
    validNew: ({ context }) => context.editingId === null && validateShippingAddress(context.values).ok,
  },
  actions: {
    ...effectDefaults,
    /** The page chooses the saved address in the cart (shipping.chooseAddress). */
    addressSaved: (_, _address: ShippingAddress) => {},
    startNew: assign({ editingId: null, values: EMPTY, errors: [], failure: null }),
    startEdit: assign(({ context }, addressId: number) => ({
      editingId: addressId,
      values: valuesOf(context.addresses.find((a) => a.id === addressId)!),
      errors: [],
      failure: null,
    })),
    update: assign(({ context }, values: ShippingAddressValues) => ({ values: { ...context.values, ...values } })),
    showErrors: assign(({ context }) => {
      const checked = validateShippingAddress(context.values);
      return { errors: checked.ok ? [] : checked.errors };
    }),
    keep: assign(({ context }, saved: ShippingAddress) => {
      const others = context.addresses.filter((a) => a.id !== saved.id).map((a) => (saved.is_default ? { ...a, is_default: false } : a));
      const exists = context.addresses.some((a) => a.id === saved.id);
      return {
        addresses: exists ? context.addresses.map((a) => (a.id === saved.id ? saved : (others.find((o) => o.id === a.id) ?? a))) : [...others, saved],
        errors: [],
        failure: null,
      };
    }),
    fail: assign((_, error: unknown) => {
      const f = failureOf(error);
      return { failure: f.code === 'NETWORK_ERROR' ? MSG.CART_FAIL : shownOf(error) };
    }),
  },
}).createMachine({
  id: 'shippingAddress',
  context: ({ input }) => ({ addresses: input.addresses, editingId: null, values: EMPTY, errors: [], failure: null }),
  initial: 'listing',
  states: {
    listing: {
      on: {
        'address.new': { target: 'editing', actions: 'startNew' },
        'address.edit': { guard: { type: 'known', params: ({ event }) => event.addressId }, target: 'editing', actions: { type: 'startEdit', params: ({ event }) => event.addressId } },
      },
    },
    editing: {
      on: {
        'form.update': { actions: { type: 'update', params: ({ event }) => event.values } },
        'form.submit': [{ guard: 'validNew', target: 'creating' }, { guard: 'valid', target: 'updating' }, { actions: 'showErrors' }],
        'form.cancel': { target: 'listing' },
      },
    },
    creating: {
      invoke: {
        id: 'createShippingAddress',
        src: 'createShippingAddress',
        input: ({ context }) => bodyOf(context.values),
        onDone: { target: 'listing', actions: [{ type: 'keep', params: ({ event }) => event.output.data }, { type: 'addressSaved', params: ({ event }) => event.output.data }] },
        onError: { target: 'editing', actions: { type: 'fail', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    updating: {
      invoke: {
        id: 'updateShippingAddress',
        src: 'updateShippingAddress',
        input: ({ context }) => ({ addressId: context.editingId!, body: bodyOf(context.values) }),
        onDone: { target: 'listing', actions: [{ type: 'keep', params: ({ event }) => event.output.data }, { type: 'addressSaved', params: ({ event }) => event.output.data }] },
        onError: { target: 'editing', actions: { type: 'fail', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
  },
});
