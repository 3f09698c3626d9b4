import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { components } from '../../../generated/api';
import { toDecimalString } from '../../../domain/money';
import type { bankTransferMachine, BankTransferForm } from '../../../machines/payments/bank-transfer.machine';
import { selectCanNotifyLater, selectFieldError, selectNoticeBusy, selectSlip } from '../../../machines/payments/bank-transfer.selectors';
import { money, t } from '../../i18n/messages';
import { Button, ChoiceGroup, Modal, SelectField, TextAreaField, TextField, UploadWidget } from '../../ui';

type Ref = ActorRefFrom<typeof bankTransferMachine>;
export type BankAccount = components['schemas']['BankAccount'];
export type BankCodeOption = components['schemas']['BankCodeOption'];

export interface BankTransferModalProps {
  actorRef: Ref;
  /** Destination accounts (method 1's bankList). */
  accounts: readonly BankAccount[];
  /** Origin bank options (getBankCodeOptions). */
  bankCodes: readonly BankCodeOption[];
}

type TextKey = Exclude<keyof BankTransferForm, 'slip'>;

/** The bank-transfer notification modal (catalogue texts: its title, notify later, notify). */
export function BankTransferModal({ actorRef, accounts, bankCodes }: BankTransferModalProps) {
  const open = useSelector(actorRef, (s) => s.status === 'active');
  const form = useSelector(actorRef, (s) => s.context.form);
  const busy = useSelector(actorRef, selectNoticeBusy);
  const canLater = useSelector(actorRef, selectCanNotifyLater);
  const slip = useSelector(actorRef, selectSlip);
  const uploading = useSelector(actorRef, (s) => s.matches('uploadingSlip'));
  const amount = useSelector(actorRef, (s) => s.context.order.amount);
  const currency = useSelector(actorRef, (s) => s.context.order.currency);
  const slipRequired = useSelector(actorRef, (s) => s.context.slipRequired);
  const err = (field: string) => selectFieldError(actorRef.getSnapshot(), field);
  useSelector(actorRef, (s) => s.context.errors);

  const update = (key: TextKey) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    actorRef.send({ type: 'form.update', values: { [key]: event.currentTarget.value } });

  return (
    <Modal
      open={open}
      title={t('notifyPayment')}
      dismissable={canLater && !busy}
      maskClosable={false}
      onClose={() => actorRef.send({ type: 'payment.later' })}
      testId="bank-transfer-modal"
      footer={
        <>
          {canLater ? (
            <Button variant="secondary" onClick={() => actorRef.send({ type: 'payment.later' })} disabled={busy} data-testid="notify-later">
              {t('notifyLater')}
            </Button>
          ) : null}
          <Button onClick={() => actorRef.send({ type: 'payment.notify' })} loading={busy} disabled={busy} data-testid="notify-submit">
            {t('notifyPayment')}
          </Button>
        </>
      }
    >
      <p className="bank-transfer__amount">
        {t('payable')}: <strong data-testid="transfer-due">{money(amount, currency)}</strong>
      </p>
      {accounts.length > 0 ? (
        <ChoiceGroup legend={t('destinationAccount')} error={err('bank_account')} required>
          <ul className="bank-accounts">
            {accounts.map((a) => (
              <li key={a.id}>
                <label className="bank-account">
                  <input type="radio" name="bank_account" value={a.account_id} checked={form.bank_account === a.account_id} onChange={update('bank_account')} disabled={busy} />
                  <span>
                    <strong>{a.bank_name}</strong> {a.account_id}
                    <br />
                    <span className="ui-muted">{a.account_name}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </ChoiceGroup>
      ) : (
        <TextField label={t('destinationAccount')} value={form.bank_account} onChange={update('bank_account')} error={err('bank_account')} required disabled={busy} />
      )}
      <div className="form-grid">
        <TextField label={t('contactName')} value={form.contact_name} onChange={update('contact_name')} error={err('contact_name')} required={amount === 0} autoComplete="name" disabled={busy} />
        <TextField label={t('tel')} value={form.tel} onChange={update('tel')} error={err('tel')} inputMode="tel" autoComplete="tel" disabled={busy} />
        <TextField
          label={t('transferAmount')}
          value={form.transfer_amount}
          onChange={update('transfer_amount')}
          error={err('transfer_amount')}
          required
          inputMode="decimal"
          placeholder={toDecimalString(amount)}
          disabled={busy}
          data-testid="transfer-amount"
        />
        <SelectField label={t('originBank')} value={form.bank_code} onChange={update('bank_code')} error={err('bank_code')} required disabled={busy} data-testid="origin-bank" options={bankCodes.map((b) => ({ value: b.banktransfer_value, label: b.banktransfer_nameth }))} />
        <TextField label={t('transferDate')} type="date" value={form.transfer_datetime} onChange={update('transfer_datetime')} error={err('transfer_datetime')} required disabled={busy} />
        <TextField label={t('transferTime')} type="time" step={1} value={form.time} onChange={update('time')} error={err('time')} required disabled={busy} />
      </div>
      <TextAreaField label={t('description')} value={form.description} onChange={update('description')} disabled={busy} />
      <UploadWidget
        kind="image"
        label={t('slip')}
        hint={t('slipHint')}
        required={slipRequired && amount > 0}
        files={slip ? [{ name: slip, url: `/uploads/${encodeURIComponent(slip)}` }] : []}
        onAdd={(file) => actorRef.send({ type: 'slip.select', file })}
        onRemove={() => actorRef.send({ type: 'slip.remove' })}
        error={err('slip')}
        disabled={busy || uploading}
        testId="slip"
      />
    </Modal>
  );
}
