/**
 * The tax gate before an order is created (spec section 5 "Tax invoice"; checkout step 3 runs it
 * first). Below the threshold (1000 THB / 30 USD before VAT, domain) the order goes on. Otherwise
 * the student is loaded (error: 'ไม่สามารถดึงข้อมูลได้ กรุณาลองใหม่อีกครั้ง'). Withholding needs a
 * juristic person with is_require_tax_invoice (domain withholdingEligibility), else the
 * change-person-type modal asks to become one; the juristic tax-invoice modal (not dismissable by
 * its mask) collects the tax fields (domain validateTaxInvoice, 'ข้อมูลใบกำกับภาษีไม่ถูกต้อง'),
 * with the company certificate uploaded, and saves them (updateStudentTax).
 */
import { assign, setup } from 'xstate';
import type { FieldError } from '../../domain/forms/common';
import { taxInvoiceErrors, validateTaxInvoice } from '../../domain/forms/tax-invoice';
import { validateUpload } from '../../domain/forms/upload';
import { MSG } from '../../domain/messages';
import type { Currency } from '../../domain/money';
import { isWithholdingOffered, needsTaxInvoiceCheck, normalizeTaxId, taxBase, withholdingEligibility } from '../../domain/tax';
import type { TaxSettings } from '../../domain/types';
import { failureOf, refusedForSession, validationIssuesOf } from '../shared/api-error';
import type { DataResponse, Student, SuccessResponse, TaxInfo, UploadRequest, UploadResponse } from '../shared/api';
import { effectDefaults, type Notice } from '../shared/effects';
import { providedByApp } from '../shared/provided';
import { builtOnFirstUse } from '../shared/built-on-first-use';

export interface TaxGateInput {
  /** Subtotal of the order (VAT included), minor units. */
  price: number;
  discount: number;
  currency: Currency;
  settings: TaxSettings;
  /** The buyer chose withholding tax. */
  withholding: boolean;
}

/** The juristic tax-invoice modal's fields. */
export interface TaxInvoiceForm {
  tax_name_one: string;
  tax_name_two: string;
  tax_payer_identification_no: string;
  tax_address: string;
  tax_is_delivery_by_tax_address: boolean;
  tax_delivery_address: string;
  tax_company_certificate: string | null;
}

export interface TaxGateContext {
  order: TaxGateInput;
  student: Student | null;
  form: TaxInvoiceForm;
  errors: FieldError[];
}

export type TaxGateOutput = { passed: true } | { passed: false; reason: 'declined' | 'studentUnavailable' };

export type TaxGateEvent =
  | { type: 'personType.confirm' }
  | { type: 'personType.cancel' }
  | { type: 'taxInvoice.update'; values: Partial<Omit<TaxInvoiceForm, 'tax_company_certificate'>> }
  | { type: 'certificate.select'; file: Blob & { name: string } }
  | { type: 'taxInvoice.submit' }
  | { type: 'taxInvoice.cancel' };

const EMPTY_FORM: TaxInvoiceForm = {
  tax_name_one: '',
  tax_name_two: '',
  tax_payer_identification_no: '',
  tax_address: '',
  tax_is_delivery_by_tax_address: true,
  tax_delivery_address: '',
  tax_company_certificate: null,
};

function taxInfo(form: TaxInvoiceForm): TaxInfo {
  return {
    is_require_tax_invoice: true,
    tax_person_type: 'juristic_person',
    tax_name_one: form.tax_name_one.trim(),
    tax_name_two: form.tax_name_two.trim(),
    tax_payer_identification_no: normalizeTaxId(form.tax_payer_identification_no),
    tax_address: form.tax_address.trim(),
    tax_is_delivery_by_tax_address: form.tax_is_delivery_by_tax_address,
    tax_delivery_address: form.tax_is_delivery_by_tax_address ? null : form.tax_delivery_address.trim(),
    tax_company_certificate: form.tax_company_certificate,
  };
}

function formOf(student: Student): TaxInvoiceForm {
  return {
    tax_name_one: student.tax_name_one ?? '',
    tax_name_two: student.tax_name_two ?? '',
    tax_payer_identification_no: student.tax_payer_identification_no ?? '',
    tax_address: student.tax_address ?? '',
    tax_is_delivery_by_tax_address: student.tax_is_delivery_by_tax_address ?? true,
    tax_delivery_address: student.tax_delivery_address ?? '',
    tax_company_certificate: student.tax_company_certificate ?? null,
  };
}

const INVALID: Notice = { kind: 'error', topic: 'invalidData', message: MSG.TAX_INVOICE_INVALID };

/**
 * A failed save: refused for its data (400, 422) it says the data is invalid, beside the fields'
 * own errors; failed any other way (the server, the network) it says the data could not be saved
 * and may be sent again, not that the buyer typed something wrong.
 */
function saveFailed(error: unknown): Notice {
  const { status } = failureOf(error);
  return status === 400 || status === 422 ? INVALID : { kind: 'error', topic: 'fail', message: MSG.INPUT_ERROR };
}


export const taxGateMachine = builtOnFirstUse(() =>
  setup({
    types: {
      context: {} as TaxGateContext,
      events: {} as TaxGateEvent,
      input: {} as TaxGateInput,
      output: {} as TaxGateOutput,
    },
    actors: {
      getStudentProfile: providedByApp<DataResponse<Student>, void>('getStudentProfile'),
      updateStudentTax: providedByApp<SuccessResponse, TaxInfo>('updateStudentTax'),
      uploadFile: providedByApp<UploadResponse, UploadRequest>('uploadFile'),
    },
    guards: {
      refusedForSession: (_, error: unknown) => refusedForSession(error),
      /** Below the threshold, or nothing to check (no tax invoice on the site, no withholding offered). */
      noTaxCheck: ({ context }) => {
        const o = context.order;
        const base = taxBase(o);
        return !needsTaxInvoiceCheck(base, o.currency, o.settings) && !(o.withholding && isWithholdingOffered(base, o.currency, o.settings));
      },
      withholdingNeedsJuristic: ({ context }) => context.order.withholding && withholdingEligibility(context.student) === 'change_person_type',
      withholdingTaxInfoIncomplete: ({ context }) =>
        context.order.withholding && context.student !== null && taxInvoiceErrors({ ...context.student, tax_person_type: 'juristic_person' }).length > 0,
      formValid: ({ context }) => validateTaxInvoice(taxInfo(context.form)).ok,
      certificateAcceptable: (_, file: Blob & { name: string }) => validateUpload([{ name: file.name, size: file.size, type: file.type }], { kinds: ['image'] }).ok,
    },
    actions: {
      ...effectDefaults,
      keepStudent: assign((_, answer: DataResponse<Student>) => ({ student: answer.data, form: formOf(answer.data) })),
      /** Becoming a juristic person clears the tax fields (spec 5: changing person type clears them). */
      startJuristicForm: assign({ form: EMPTY_FORM, errors: [] }),
      updateForm: assign(({ context }, values: Partial<TaxInvoiceForm>) => ({ form: { ...context.form, ...values }, errors: [] })),
      keepCertificate: assign(({ context }, answer: UploadResponse) => ({ form: { ...context.form, tax_company_certificate: answer.fileName[0] ?? null } })),
      showErrors: assign((_, errors: FieldError[]) => ({ errors })),
    },
  }).createMachine({
    id: 'taxGate',
    context: ({ input }) => ({ order: input, student: null, form: EMPTY_FORM, errors: [] }),
    initial: 'checkingThreshold',
    states: {
      checkingThreshold: {
        always: [{ guard: 'noTaxCheck', target: 'passed' }, { target: 'loadingStudent' }],
      },
      loadingStudent: {
        invoke: {
          id: 'getStudentProfile',
          src: 'getStudentProfile',
          onDone: { target: 'evaluating', actions: { type: 'keepStudent', params: ({ event }) => event.output } },
          onError: [
            // refused for the session: the session's own modal says it (sign-out, session expired)
            { guard: { type: 'refusedForSession', params: ({ event }: { event: { error: unknown } }) => event.error }, target: 'studentUnavailable' },
            { target: 'studentUnavailable', actions: { type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.CANNOT_LOAD_DATA } } },
          ],
        },
      },
      evaluating: {
        always: [
          { guard: 'withholdingNeedsJuristic', target: 'confirmingPersonType' },
          { guard: 'withholdingTaxInfoIncomplete', target: 'editingTaxInvoice' },
          { target: 'passed' },
        ],
      },
      /** The change-person-type modal. */
      confirmingPersonType: {
        on: {
          'personType.confirm': { target: 'editingTaxInvoice', actions: 'startJuristicForm' },
          'personType.cancel': 'declined',
        },
      },
      /** The juristic tax-invoice modal (85% wide, max 750 px; a click on the mask does not close it). */
      editingTaxInvoice: {
        on: {
          'taxInvoice.update': { actions: { type: 'updateForm', params: ({ event }) => event.values } },
          'certificate.select': [
            { guard: { type: 'certificateAcceptable', params: ({ event }) => event.file }, target: 'uploadingCertificate' },
            { actions: { type: 'notify', params: { kind: 'error', topic: 'invalidData', message: MSG.FILE_TYPE_NOT_ALLOWED } } },
          ],
          'taxInvoice.submit': [
            { guard: 'formValid', target: 'savingTaxInvoice', actions: { type: 'showErrors', params: [] } },
            {
              actions: [
                { type: 'showErrors', params: ({ context }) => taxInvoiceErrors(taxInfo(context.form)) },
                { type: 'notify', params: INVALID },
              ],
            },
          ],
          'taxInvoice.cancel': 'declined',
        },
      },
      uploadingCertificate: {
        invoke: {
          id: 'uploadFile',
          src: 'uploadFile',
          input: ({ event }) => ({ imageinput: (event as { file: Blob }).file }),
          onDone: { target: 'editingTaxInvoice', actions: { type: 'keepCertificate', params: ({ event }) => event.output } },
          onError: {
            target: 'editingTaxInvoice',
            actions: { type: 'notify', params: { kind: 'error', topic: 'invalidData', message: MSG.IMAGE_UPLOAD_FAILED } },
          },
        },
      },
      savingTaxInvoice: {
        invoke: {
          id: 'updateStudentTax',
          src: 'updateStudentTax',
          input: ({ context }) => taxInfo(context.form),
          onDone: { target: 'passed' },
          onError: {
            target: 'editingTaxInvoice',
            actions: [{ type: 'showErrors', params: ({ event }) => validationIssuesOf(event.error) }, { type: 'notify', params: ({ event }) => saveFailed(event.error) }],
          },
        },
      },
      passed: { type: 'final', output: { passed: true } },
      declined: { type: 'final', output: { passed: false, reason: 'declined' } },
      studentUnavailable: { type: 'final', output: { passed: false, reason: 'studentUnavailable' } },
    },
    output: ({ event }) => (event as unknown as { output: TaxGateOutput }).output,
  }),
);
