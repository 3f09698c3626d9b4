import assert from 'node:assert/strict';
import { taxGateMachine } from '../../../machines/tax/tax-gate.machine';
import { selectCheckingTax, selectPersonTypeModalOpen, selectTaxErrors, selectTaxModalOpen, TAX_MODAL_MASK_CLOSABLE } from '../../../machines/tax/tax-gate.selectors';
import { defineModel } from '../support/model';
import { MSG } from '../../../domain/messages';

const settings = { vat_value: 7, is_enable_vat: 1, is_enable_tax_invoice: 1, is_enable_withholding_tax: 1 };
const above = { price: 200000, discount: 0, currency: 'THB' as const, settings };

const profile = (extra: Record<string, unknown>) => ({
  success: true,
  data: {
    id: 42,
    firstname: 'สมชาย',
    lastname: 'ใจดี',
    user_fullname: 'สมชาย ใจดี',
    email: 'somchai@example.com',
    tel: '0812345678',
    address: null,
    is_require_tax_invoice: false,
    tax_person_type: 'normal_person',
    ...extra,
  },
});
const company = {
  tax_name_one: 'บริษัท ตัวอย่าง จำกัด',
  tax_name_two: '00000',
  tax_payer_identification_no: '1101700203450',
  tax_address: '1 ถนนสีลม กรุงเทพฯ',
};
const juristic = profile({ is_require_tax_invoice: true, tax_person_type: 'juristic_person', ...company, tax_company_certificate: 'cert.png' });
const juristicNoCertificate = profile({ is_require_tax_invoice: true, tax_person_type: 'juristic_person', ...company });
const png = { name: 'cert.png', size: 1024, type: 'image/png' };

export const taxGateModel = defineModel({
  machine: taxGateMachine,
  file: 'machines/tax/tax-gate.machine.ts',
  input: { ...above, withholding: true },
  variants: [
    { name: 'below the threshold', input: { price: 50000, discount: 0, currency: 'THB', settings, withholding: false } },
    { name: 'tax invoice check without withholding', input: { ...above, withholding: false } },
  ],
  userEvents: [
    { type: 'personType.confirm' },
    { type: 'personType.cancel' },
    { type: 'taxInvoice.update', values: company },
    { type: 'taxInvoice.update', values: { tax_payer_identification_no: '123' } },
    { type: 'certificate.select', file: png },
    { type: 'certificate.select', file: { name: 'cert.pdf', size: 1024, type: 'application/pdf' } },
    { type: 'taxInvoice.submit' },
    { type: 'taxInvoice.cancel' },
  ],
  outcomes: {
    getStudentProfile: {
      done: [profile({}), juristic, juristicNoCertificate],
      // no answer; refused for the session (off the whitelist, the session expired): the session's modal says it
      error: [new Error('network'), { status: 403, code: 'WHITELIST_USER_DENIED', msg: 'not allowed' }, { status: 401, code: 'PERMISSION_DENIED', msg: 'Unauthorized' }],
    },
    updateStudentTax: {
      done: [{ success: true }],
      error: [
        { status: 400, code: 'TAX_INVOICE_INVALID', msg: 'ข้อมูลใบกำกับภาษีไม่ถูกต้อง', result: [{ field: 'tax_payer_identification_no', msg: 'เลขประจำตัวผู้เสียภาษีไม่ถูกต้อง' }] },
        { status: 500, code: 'INTERNAL_ERROR', msg: 'เกิดข้อผิดพลาดในระบบ กรุณาลองใหม่อีกครั้ง' },
      ],
    },
    uploadFile: { done: [{ success: true, fileName: ['cert.png'] }], error: [new Error('network')] },
  },
  effects: ['notify'],
  accepts: (s) => {
    if (s.matches('confirmingPersonType')) return ['personType.confirm', 'personType.cancel'];
    if (s.matches('editingTaxInvoice')) return ['taxInvoice.update', 'certificate.select', 'taxInvoice.submit', 'taxInvoice.cancel'];
    return [];
  },
  check: (s, step) => {
    assert.equal(selectPersonTypeModalOpen(s), s.matches('confirmingPersonType'));
    assert.equal(selectTaxModalOpen(s), s.matches('editingTaxInvoice') || s.matches('uploadingCertificate') || s.matches('savingTaxInvoice'));
    assert.equal(TAX_MODAL_MASK_CLOSABLE, false);
    assert.equal(selectCheckingTax(s), s.matches('loadingStudent'));
    if (s.matches('studentUnavailable')) {
      const forSession = typeof (step.event as unknown as { error?: { status?: number } }).error?.status === 'number';
      assert.deepEqual(step.effects, forSession ? [] : [{ type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.CANNOT_LOAD_DATA } }]);
      assert.deepEqual(s.output, { passed: false, reason: 'studentUnavailable' });
    }
    if (s.matches('confirmingPersonType')) assert.equal(s.context.student?.tax_person_type, 'normal_person');
    if (step.event.type === 'taxInvoice.submit' && s.matches('editingTaxInvoice')) {
      assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'error', topic: 'invalidData', message: MSG.TAX_INVOICE_INVALID } }]);
      assert.ok(selectTaxErrors(s).length > 0);
    }
    if (step.event.type === 'xstate.error.actor.updateStudentTax') {
      // refused for its data: invalid, with the fields' errors; failed otherwise: not saved, send again
      const refused = (step.event as { error?: { status?: number } }).error?.status === 400;
      const notice = refused ? { kind: 'error', topic: 'invalidData', message: MSG.TAX_INVOICE_INVALID } : { kind: 'error', topic: 'fail', message: MSG.INPUT_ERROR };
      assert.deepEqual(step.effects, [{ type: 'notify', params: notice }]);
      assert.equal(selectTaxErrors(s).length > 0, refused);
    }
    if (s.matches('savingTaxInvoice')) {
      assert.deepEqual(step.scripts.inputsOf('updateStudentTax').at(-1), {
        is_require_tax_invoice: true,
        tax_person_type: 'juristic_person',
        ...company,
        tax_is_delivery_by_tax_address: true,
        tax_delivery_address: null,
        tax_company_certificate: 'cert.png',
      });
    }
    if (s.matches('passed')) assert.deepEqual(s.output, { passed: true });
    if (s.matches('declined')) assert.deepEqual(s.output, { passed: false, reason: 'declined' });
  },
});
