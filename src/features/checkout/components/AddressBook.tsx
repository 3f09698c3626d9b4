import { useActorRef, useSelector } from '@xstate/react';
import { SHIPPING_ADDRESS_FIELDS, type ShippingAddressValues } from '../../../../domain/forms/shipping-address';
import { selectShipping } from '../../../../machines/cart/cart.selectors';
import { shippingAddressMachine, type ShippingAddress } from '../../../../machines/shipping/shipping-address.machine';
import { selectAddresses, selectEditingId, selectFailure, selectFieldError, selectFormOpen, selectSaving, selectValues } from '../../../../machines/shipping/shipping-address.selectors';
import { selectSessionLive } from '../../../../machines/session/session.selectors';
import { actorOptions } from '../../../api/actor-options';
import { studentActors } from '../../../api/actors';
import { t, tm, type UiKey } from '../../../i18n/messages';
import { SessionContext } from '../../../session';
import { Alert, Button, ChoiceGroup } from '../../../ui';
import type { CartRef } from './CartPanel';

const LABEL: Record<(typeof SHIPPING_ADDRESS_FIELDS)[number], UiKey> = {
  name: 'addressName',
  tel: 'addressTel',
  address: 'addressLine',
  sub_district: 'addressSubDistrict',
  district: 'addressDistrict',
  province: 'addressProvince',
  postcode: 'addressPostcode',
};

const logic = shippingAddressMachine.provide({
  actors: { createShippingAddress: studentActors.createShippingAddress, updateShippingAddress: studentActors.updateShippingAddress },
});

type AddressRef = ReturnType<typeof useActorRef<typeof logic>>;

function AddressForm({ addressRef }: { addressRef: AddressRef }) {
  const values = useSelector(addressRef, selectValues);
  const saving = useSelector(addressRef, selectSaving);
  const failure = useSelector(addressRef, selectFailure);
  const editingId = useSelector(addressRef, selectEditingId);
  const errors = useSelector(addressRef, (s) => Object.fromEntries(SHIPPING_ADDRESS_FIELDS.map((f) => [f, selectFieldError(s, f)])), (a, b) => JSON.stringify(a) === JSON.stringify(b));
  return (
    <fieldset className="address-form" data-testid="address-form" disabled={saving}>
      <legend>{editingId === null ? t('addressNew') : t('addressEdit')}</legend>
      {SHIPPING_ADDRESS_FIELDS.map((field) => {
        const id = `address-${field}`;
        const error = errors[field];
        return (
          <div key={field} className="ui-field">
            <label className="ui-field__label" htmlFor={id}>
              {t(LABEL[field])}
            </label>
            <input
              id={id}
              className="ui-input"
              value={(values as ShippingAddressValues)[field] ?? ''}
              inputMode={field === 'tel' || field === 'postcode' ? 'numeric' : undefined}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => addressRef.send({ type: 'form.update', values: { [field]: event.currentTarget.value } })}
            />
            {error ? (
              <p id={`${id}-error`} className="ui-field__error" role="alert">
                {tm(error)}
              </p>
            ) : null}
          </div>
        );
      })}
      {failure ? (
        <Alert kind="error">
          {tm(failure)}
        </Alert>
      ) : null}
      <div className="address-form__actions">
        <Button onClick={() => addressRef.send({ type: 'form.submit' })} loading={saving} data-testid="address-save">
          {t('save')}
        </Button>
        <Button variant="secondary" onClick={() => addressRef.send({ type: 'form.cancel' })}>
          {t('cancel')}
        </Button>
      </div>
    </fieldset>
  );
}

/**
 * The student's shipping addresses at checkout: choose one (the cart's address), add a new one or
 * edit one (the shippingAddress machine); a saved address is chosen. Visitors log in first.
 */
export function AddressBook({ cartRef, addresses }: { cartRef: CartRef; addresses: readonly ShippingAddress[] }) {
  const loggedIn = SessionContext.useSelector(selectSessionLive);
  const addressRef = useActorRef(logic.provide({ actions: { addressSaved: (_, a: ShippingAddress) => cartRef.send({ type: 'shipping.chooseAddress', addressId: a.id }) } }), {
    ...actorOptions('shippingAddress'),
    input: { addresses: [...addresses] },
  });
  const list = useSelector(addressRef, selectAddresses);
  const open = useSelector(addressRef, selectFormOpen);
  const chosen = useSelector(cartRef, (s) => selectShipping(s).addressId);
  return (
    <ChoiceGroup legend={t('shippingAddress')} required>
      {!loggedIn ? <p className="ui-muted">{t('addressLogin')}</p> : null}
      {list.map((a) => (
        <div key={a.id} className="address">
          <label>
            <input type="radio" name="shipping-address" checked={chosen === a.id} onChange={() => cartRef.send({ type: 'shipping.chooseAddress', addressId: a.id })} />
            {a.name}, {a.address} {a.sub_district} {a.district} {a.province} {a.postcode} ({a.tel})
          </label>
          {open ? null : (
            <Button variant="secondary" onClick={() => addressRef.send({ type: 'address.edit', addressId: a.id })} aria-label={`${t('addressEdit')}: ${a.name}`}>
              {t('addressEdit')}
            </Button>
          )}
        </div>
      ))}
      {open ? (
        <AddressForm addressRef={addressRef} />
      ) : loggedIn ? (
        <Button variant="secondary" onClick={() => addressRef.send({ type: 'address.new' })} data-testid="address-new">
          {t('addressNew')}
        </Button>
      ) : null}
    </ChoiceGroup>
  );
}
