import assert from 'node:assert/strict';
import { shippingAddressMachine } from '../../../machines/shipping/shipping-address.machine';
import { selectAddresses, selectFailure, selectFieldError, selectFormOpen, selectSaving, selectValues } from '../../../machines/shipping/shipping-address.selectors';
import { validateShippingAddress } from '../../../domain/forms/shipping-address';
import { defineModel } from '../support/model';
import { MSG } from '../../../domain/messages';

const HOME = { id: 1, name: 'สมชาย ใจดี', tel: '0812345678', address: '99 ถนนสุขุมวิท', sub_district: 'คลองตันเหนือ', district: 'วัฒนา', province: 'กรุงเทพมหานคร', postcode: '10110', is_default: true };
const NEW = { name: 'สมชาย', tel: '0812345679', address: '5 ซอย 1', sub_district: 'ลุมพินี', district: 'ปทุมวัน', province: 'กรุงเทพมหานคร', postcode: '10330' };
const CREATED = { id: 2, ...NEW, is_default: false };
const EDITED = { ...HOME, postcode: '10111' };
const refused = { status: 400, code: 'VALIDATION_ERROR', msg: 'postcode: must match pattern' };

export const shippingAddressModel = defineModel({
  machine: shippingAddressMachine,
  file: 'machines/shipping/shipping-address.machine.ts',
  input: { addresses: [HOME] },
  userEvents: [
    { type: 'address.new' },
    { type: 'address.edit', addressId: 1 },
    { type: 'address.edit', addressId: 99 },
    { type: 'form.update', values: NEW },
    { type: 'form.update', values: { postcode: '10111' } },
    { type: 'form.update', values: { postcode: '1' } },
    { type: 'form.submit' },
    { type: 'form.cancel' },
  ],
  outcomes: {
    createShippingAddress: { done: [{ success: true, data: CREATED }], error: [refused] },
    updateShippingAddress: { done: [{ success: true, data: EDITED }], error: [refused] },
  },
  effects: ['addressSaved'],
  /**
   * The abstraction the walk needs, not the form's text. The guards read whether the form is a new
   * address or an edit and whether its values pass the domain's form; which fields fail is kept
   * (not just "valid or not") because each sample update sets given fields to values of known
   * validity, so two forms with the same failing fields answer every sample event alike. The view
   * shows whether field errors and a server failure are on screen (the list shows neither). The
   * saved list is left out: its only guard, `known`, answers the same for the sample ids 1 and 99
   * before and after a save. So paths no longer repeat every typing order before each submit.
   */
  serialize: (s) => {
    const c = s.context;
    if (s.matches('listing')) return JSON.stringify({ value: s.value });
    return JSON.stringify({
      value: s.value,
      form: c.editingId === null ? 'new' : 'edit',
      failing: validateShippingAddress(c.values).errors.map((e) => e.path),
      errors: c.errors.length > 0,
      failure: c.failure !== null,
    });
  },
  accepts: (s) => {
    if (s.matches('listing')) return ['address.new', 'address.edit'];
    if (s.matches('editing')) return ['form.update', 'form.submit', 'form.cancel'];
    return [];
  },
  check: (s, step) => {
    assert.equal(selectFormOpen(s), !s.matches('listing'));
    assert.equal(selectSaving(s), s.matches('creating') || s.matches('updating'));
    // An unknown address is never edited.
    if (step.event.type === 'address.edit' && (step.event as unknown as { addressId: number }).addressId === 99) assert.ok(s.matches('listing'));
    // An edit starts from the address as saved.
    if (s.matches('editing') && step.event.type === 'address.edit') assert.equal(selectValues(s).postcode, selectAddresses(s).find((a) => a.id === 1)!.postcode);
    // Only a valid form is sent: a 1-digit postcode shows the domain's message instead.
    if (step.event.type === 'form.submit' && s.matches('editing')) {
      const v = selectValues(s);
      assert.deepEqual(selectFieldError(s, 'name'), v.name ? null : MSG.ADDRESS_NAME_REQUIRED);
      assert.deepEqual(selectFieldError(s, 'postcode'), /^\d{5}$/.test(v.postcode ?? '') ? null : MSG.ADDRESS_POSTCODE_INVALID);
    }
    if (s.matches('creating')) assert.deepEqual(step.scripts.inputsOf('createShippingAddress').at(-1), { ...NEW, ...(selectValues(s).postcode === '10111' ? { postcode: '10111' } : {}) });
    if (s.matches('updating')) assert.equal((step.scripts.inputsOf('updateShippingAddress').at(-1) as { addressId: number }).addressId, 1);
    // Saved: kept in the list and announced (the page chooses it); refused: back in the form with the message.
    if (step.event.type === 'xstate.done.actor.createShippingAddress') {
      assert.ok(selectAddresses(s).some((a) => a.id === 2));
      assert.deepEqual(step.effects, [{ type: 'addressSaved', params: CREATED }]);
    }
    if (step.event.type === 'xstate.done.actor.updateShippingAddress') {
      assert.deepEqual(selectAddresses(s).find((a) => a.id === 1), EDITED);
      assert.deepEqual(step.effects, [{ type: 'addressSaved', params: EDITED }]);
    }
    if (step.event.type.startsWith('xstate.error.actor.')) {
      assert.ok(s.matches('editing'));
      assert.equal(selectFailure(s), refused.msg);
    }
    assert.equal(selectAddresses(s).filter((a) => a.is_default).length, 1, 'one default address');
  },
});
