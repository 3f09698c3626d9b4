import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { taxGateMachine, TaxInvoiceForm } from '../../../../machines/tax/tax-gate.machine';
import { selectPersonTypeModalOpen, selectTaxErrors, selectTaxForm, selectTaxModalOpen, selectTaxSaving, TAX_MODAL_MASK_CLOSABLE, TAX_MODAL_STYLE } from '../../../../machines/tax/tax-gate.selectors';
import { t } from '../../../i18n/messages';
import { Button, ConfirmModal, Modal, TextAreaField, TextField, UploadWidget } from '../../../ui';

export type TaxGateRef = ActorRefFrom<typeof taxGateMachine>;

type TextKey = Exclude<keyof TaxInvoiceForm, 'tax_company_certificate' | 'tax_is_delivery_by_tax_address'>;

/** The juristic tax-invoice modal (85% wide, max 750 px, not closed by the mask) and the change-person-type question. */
export function TaxModals({ taxRef }: { taxRef: TaxGateRef }) {
  const personType = useSelector(taxRef, selectPersonTypeModalOpen);
  const open = useSelector(taxRef, selectTaxModalOpen);
  const form = useSelector(taxRef, selectTaxForm);
  const errors = useSelector(taxRef, selectTaxErrors);
  const saving = useSelector(taxRef, selectTaxSaving);
  const err = (path: string) => errors.find((e) => e.path === path)?.message ?? null;
  const update = (key: TextKey) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    taxRef.send({ type: 'taxInvoice.update', values: { [key]: event.currentTarget.value } });
  return (
    <>
      <ConfirmModal
        open={personType}
        title={t('changePersonTypeTitle')}
        body={t('changePersonTypeBody')}
        onConfirm={() => taxRef.send({ type: 'personType.confirm' })}
        onCancel={() => taxRef.send({ type: 'personType.cancel' })}
        testId="person-type-modal"
      />
      <Modal
        open={open}
        title={t('taxModalTitle')}
        maskClosable={TAX_MODAL_MASK_CLOSABLE}
        maxWidth={TAX_MODAL_STYLE.maxWidth}
        onClose={() => taxRef.send({ type: 'taxInvoice.cancel' })}
        dismissable={!saving}
        testId="tax-modal"
        footer={
          <>
            <Button variant="secondary" onClick={() => taxRef.send({ type: 'taxInvoice.cancel' })} disabled={saving}>
              {t('cancel')}
            </Button>
            <Button onClick={() => taxRef.send({ type: 'taxInvoice.submit' })} loading={saving} disabled={saving} data-testid="tax-submit">
              {t('save')}
            </Button>
          </>
        }
      >
        <p className="ui-muted">
          {t('personType')}: {t('juristicPerson')}
        </p>
        <TextField label={t('companyName')} value={form.tax_name_one} onChange={update('tax_name_one')} error={err('tax_name_one')} required disabled={saving} />
        <TextField label={t('branch')} value={form.tax_name_two} onChange={update('tax_name_two')} error={err('tax_name_two')} required disabled={saving} />
        <TextField
          label={t('taxId')}
          value={form.tax_payer_identification_no}
          onChange={update('tax_payer_identification_no')}
          error={err('tax_payer_identification_no')}
          inputMode="numeric"
          maxLength={13}
          required
          disabled={saving}
        />
        <TextAreaField label={t('taxAddress')} value={form.tax_address} onChange={update('tax_address')} error={err('tax_address')} required disabled={saving} />
        <label className="check">
          <input
            type="checkbox"
            checked={form.tax_is_delivery_by_tax_address}
            onChange={(event) => taxRef.send({ type: 'taxInvoice.update', values: { tax_is_delivery_by_tax_address: event.currentTarget.checked } })}
            disabled={saving}
          />{' '}
          {t('deliveryByTaxAddress')}
        </label>
        {form.tax_is_delivery_by_tax_address ? null : (
          <TextAreaField label={t('deliveryAddress')} value={form.tax_delivery_address} onChange={update('tax_delivery_address')} error={err('tax_delivery_address')} required disabled={saving} />
        )}
        <UploadWidget
          kind="image"
          label={t('companyCertificate')}
          files={form.tax_company_certificate ? [{ name: form.tax_company_certificate, url: `/uploads/${encodeURIComponent(form.tax_company_certificate)}` }] : []}
          onAdd={(file) => taxRef.send({ type: 'certificate.select', file })}
          error={err('tax_company_certificate')}
          required
          disabled={saving}
          testId="tax-certificate"
        />
      </Modal>
    </>
  );
}
