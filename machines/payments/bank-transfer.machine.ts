/**
 * Bank transfer (method 1): the notification modal 'แจ้งชำระเงิน' with 'ไว้แจ้งทีหลัง' (later) and
 * 'แจ้งชำระเงิน' (notify). The notice is checked in the spec's order (domain
 * validateBankTransfer: slip when required, contact name for a free order, amount, origin bank,
 * destination account, date, time) under the title 'คุณกรอกข้อมูลไม่ถูกต้อง'; one slip file
 * (image, domain validateUpload) is uploaded with uploadFile. The report is filed
 * (createPaymentReportPrivate, always pending) and the payment e-mail sent. 'Later' is hidden in
 * layout 4 for a buyer without registration. Later or finish -> thank-you page or order list.
 */
import { assign, setup } from 'xstate';
import { providedByApp } from '../shared/provided';
import { validateBankTransfer, type BankTransferValues } from '../../domain/forms/bank-transfer';
import { toDecimalString } from '../../domain/money';
import type { FieldError } from '../../domain/forms/common';
import { validateUpload } from '../../domain/forms/upload';
import { MSG, type Shown } from '../../domain/messages';
import { validationIssuesOf } from '../shared/api-error';
import type { PaymentOrderEmailRequest, PaymentReport, PaymentReportResponse, SuccessResponse, UploadRequest, UploadResponse } from '../shared/api';
import { effectDefaults, type Notice } from '../shared/effects';
import { finalStateOutput, type PaymentInput, type PaymentOrder, paymentTypes } from './payment';
import { builtOnFirstUse } from '../shared/built-on-first-use';

/** The notice form as typed (amount as text, date YYYY-MM-DD and time HH:mm:ss in Thai local time). */
export interface BankTransferForm {
  contact_name: string;
  tel: string;
  transfer_amount: string;
  bank_code: string;
  bank_account: string;
  transfer_datetime: string;
  time: string;
  description: string;
  slip: string | null;
}

export interface BankTransferInput extends PaymentInput {
  /** Site flag: a payment slip is required. */
  slipRequired: boolean;
  /** False in layout 4 for a buyer without registration: 'later' is hidden. */
  canNotifyLater: boolean;
  /** Defaults: the buyer's name and phone, now as the transfer date and time (Thai local time). */
  defaults: Pick<BankTransferForm, 'contact_name' | 'tel' | 'transfer_datetime' | 'time'>;
}

export interface BankTransferContext {
  order: PaymentOrder;
  slipRequired: boolean;
  canNotifyLater: boolean;
  form: BankTransferForm;
  errors: FieldError[];
}

/** A chosen file (the browser's File). */
export type SlipFile = Blob & { name: string };

export type BankTransferEvent =
  | { type: 'form.update'; values: Partial<Omit<BankTransferForm, 'slip'>> }
  | { type: 'slip.select'; file: SlipFile }
  | { type: 'slip.remove' }
  | { type: 'payment.later' }
  | { type: 'payment.notify' };

function check(context: BankTransferContext) {
  const values: BankTransferValues = { ...context.form };
  return validateBankTransfer(values, { amountDue: context.order.amount, slipRequired: context.slipRequired });
}

function invalidNotice(message: Shown): Notice {
  return { kind: 'error', topic: 'invalidData', title: MSG.INVALID_DATA_TITLE, message };
}

function report(context: BankTransferContext): PaymentReport {
  const f = context.form;
  const amount = check(context);
  return {
    order_id: context.order.orderId,
    contact_name: f.contact_name.trim(),
    email: context.order.email,
    payment_method_id: context.order.methodId,
    status: 'pending',
    bank_code: f.bank_code,
    tel: f.tel.trim() || null,
    bank_account: f.bank_account,
    transfer_datetime: f.transfer_datetime,
    time: f.time.length === 5 ? `${f.time}:00` : f.time,
    transfer_amount: amount.ok ? amount.data.transfer_amount : 0,
    description: f.description.trim() || null,
    slip: f.slip,
  };
}


export const bankTransferMachine = builtOnFirstUse(() =>
  setup({
    types: paymentTypes<BankTransferContext, BankTransferEvent, BankTransferInput>(),
    actors: {
      uploadFile: providedByApp<UploadResponse, UploadRequest>('uploadFile'),
      createPaymentReportPrivate: providedByApp<PaymentReportResponse, PaymentReport>('createPaymentReportPrivate'),
      sendPaymentOrderEmail: providedByApp<SuccessResponse, PaymentOrderEmailRequest>('sendPaymentOrderEmail'),
    },
    guards: {
      laterAllowed: ({ context }) => context.canNotifyLater,
      noticeValid: ({ context }) => check(context).ok,
      slipAcceptable: (_, file: SlipFile) => validateUpload([{ name: file.name, size: file.size, type: file.type }], { kinds: ['image'] }).ok,
      rejectedWithIssues: (_, error: unknown) => validationIssuesOf(error).length > 0,
    },
    actions: {
      ...effectDefaults,
      updateForm: assign(({ context }, values: Partial<BankTransferForm>) => ({ form: { ...context.form, ...values }, errors: [] })),
      keepSlip: assign(({ context }, answer: UploadResponse) => ({ form: { ...context.form, slip: answer.fileName[0] ?? null } })),
      removeSlip: assign(({ context }) => ({ form: { ...context.form, slip: null } })),
      showErrors: assign((_, errors: FieldError[]) => ({ errors })),
    },
  }).createMachine({
    id: 'bankTransfer',
    context: ({ input }) => ({
      order: input.order,
      slipRequired: input.slipRequired,
      canNotifyLater: input.canNotifyLater,
      form: {
        contact_name: input.defaults.contact_name,
        tel: input.defaults.tel,
        // Prefilled with what the order asks for (the server's amount); the buyer changes it when they transferred otherwise.
        transfer_amount: toDecimalString(input.order.amount),
        bank_code: '',
        bank_account: '',
        transfer_datetime: input.defaults.transfer_datetime,
        time: input.defaults.time,
        description: '',
        slip: null,
      },
      errors: [],
    }),
    initial: 'notifying',
    states: {
      notifying: {
        on: {
          'form.update': { actions: { type: 'updateForm', params: ({ event }) => event.values } },
          'slip.select': [
            { guard: { type: 'slipAcceptable', params: ({ event }) => event.file }, target: 'uploadingSlip' },
            {
              actions: {
                type: 'notify',
                params: ({ event }) => invalidNotice(validateUpload([{ name: event.file.name, size: event.file.size, type: event.file.type }], { kinds: ['image'] }).errors[0]?.message ?? MSG.FILE_TYPE_NOT_ALLOWED),
              },
            },
          ],
          'slip.remove': { actions: 'removeSlip' },
          'payment.later': { guard: 'laterAllowed', target: 'notifiedLater' },
          'payment.notify': [
            { guard: 'noticeValid', target: 'submittingReport', actions: { type: 'showErrors', params: [] } },
            {
              actions: [
                { type: 'showErrors', params: ({ context }) => (check(context) as { errors: FieldError[] }).errors },
                { type: 'notify', params: ({ context }) => invalidNotice((check(context) as { errors: FieldError[] }).errors[0]?.message ?? MSG.INVALID_DATA_TITLE) },
              ],
            },
          ],
        },
      },
      uploadingSlip: {
        invoke: {
          id: 'uploadFile',
          src: 'uploadFile',
          input: ({ event }) => ({ imageinput: (event as { file: SlipFile }).file }),
          onDone: { target: 'notifying', actions: { type: 'keepSlip', params: ({ event }) => event.output } },
          onError: {
            target: 'notifying',
            actions: { type: 'notify', params: { kind: 'error', topic: 'invalidData', message: MSG.IMAGE_UPLOAD_FAILED } },
          },
        },
      },
      submittingReport: {
        invoke: {
          id: 'createPaymentReportPrivate',
          src: 'createPaymentReportPrivate',
          input: ({ context }) => report(context),
          onDone: { target: 'sendingEmail' },
          onError: [
            {
              guard: { type: 'rejectedWithIssues', params: ({ event }: { event: { error: unknown } }) => event.error },
              target: 'notifying',
              actions: [
                { type: 'showErrors', params: ({ event }) => validationIssuesOf(event.error) },
                { type: 'notify', params: ({ event }) => invalidNotice(validationIssuesOf(event.error)[0]?.message ?? MSG.INVALID_DATA_TITLE) },
              ],
            },
            { target: 'notifying', actions: { type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.CART_FAIL } } },
          ],
        },
      },
      sendingEmail: {
        invoke: {
          id: 'sendPaymentOrderEmail',
          src: 'sendPaymentOrderEmail',
          input: ({ context }) => {
            const r = report(context);
            return {
              fullname: r.contact_name,
              orderId: r.order_id,
              email: r.email,
              description: r.description,
              bank_account: r.bank_account,
              bank_code: r.bank_code,
              amount: r.transfer_amount,
              telephone: r.tel,
              date: r.transfer_datetime,
              time: r.time,
            };
          },
          onDone: { target: 'notified' },
          // The report is filed; a lost e-mail does not undo it.
          onError: { target: 'notified' },
        },
      },
      notified: { type: 'final', output: { result: 'pending' } },
      notifiedLater: { type: 'final', output: { result: 'pending' } },
    },
    output: finalStateOutput,
  }),
);
