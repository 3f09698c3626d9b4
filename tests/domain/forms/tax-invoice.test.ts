import { describe, expect, it } from 'vitest';
import { taxInvoiceErrors, taxInvoiceSchema, validateTaxInvoice } from '../../../domain/forms/tax-invoice';
import type { TaxInfo } from '../../../domain/types';
import { renderShown } from '../../../domain/messages';

const company: TaxInfo = {
  tax_person_type: 'juristic_person',
  tax_name_one: 'บริษัท ตัวอย่าง จำกัด',
  tax_name_two: '00000',
  tax_payer_identification_no: '1101700203450',
  tax_address: '1 ถนนสุขุมวิท กรุงเทพ',
  tax_is_delivery_by_tax_address: true,
  tax_delivery_address: null,
  tax_company_certificate: 'cert.pdf',
};
const person: TaxInfo = { ...company, tax_person_type: 'normal_person', tax_name_one: 'สมชาย', tax_name_two: 'ใจดี', tax_company_certificate: null };

describe('spec 5 "Tax invoice": fields, person vs company wording, \'ข้อมูลใบกำกับภาษีไม่ถูกต้อง\'', () => {
  it('valid company and person pass; the id is normalised', () => {
    expect(validateTaxInvoice(company)).toMatchObject({ ok: true, message: null });
    const r = validateTaxInvoice({ ...person, tax_payer_identification_no: '1-1017-00203-45-0' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.data.tax_payer_identification_no).toBe('1101700203450');
  });

  it.each<{ rule: string; values: TaxInfo; errors: [string, string][] }>([
    { rule: 'company: name one = company name', values: { ...company, tax_name_one: '' }, errors: [['tax_name_one', 'กรุณากรอกชื่อบริษัท']] },
    { rule: 'company: name two = branch', values: { ...company, tax_name_two: ' ' }, errors: [['tax_name_two', 'กรุณากรอกชื่อสาขาหรือเลขที่สาขา']] },
    { rule: 'person: name one = first name', values: { ...person, tax_name_one: '' }, errors: [['tax_name_one', 'กรุณากรอกชื่อ']] },
    { rule: 'person: name two = last name', values: { ...person, tax_name_two: null }, errors: [['tax_name_two', 'กรุณากรอกนามสกุล']] },
    { rule: 'names over 255', values: { ...company, tax_name_one: 'x'.repeat(256), tax_name_two: 'y'.repeat(256) }, errors: [['tax_name_one', 'Please enter name, not over 255 characters'], ['tax_name_two', 'Please enter name, not over 255 characters']] },
    { rule: 'payer id: empty (company wording)', values: { ...company, tax_payer_identification_no: '' }, errors: [['tax_payer_identification_no', 'กรุณากรอกเลขประจำตัวผู้เสียภาษี']] },
    { rule: 'payer id: over-length', values: { ...company, tax_payer_identification_no: '11017002034501' }, errors: [['tax_payer_identification_no', 'เลขประจำตัวผู้เสียภาษีต้องไม่เกิน 13 หลัก']] },
    { rule: 'payer id: too short (person wording)', values: { ...person, tax_payer_identification_no: '1101' }, errors: [['tax_payer_identification_no', 'เลขประจำตัวประชาชนต้องมี 13 หลัก']] },
    { rule: 'payer id: wrong check digit', values: { ...company, tax_payer_identification_no: '1101700203451' }, errors: [['tax_payer_identification_no', 'เลขประจำตัวผู้เสียภาษีไม่ถูกต้อง: หลักสุดท้าย (เลขตรวจสอบ) ไม่ตรงกับ 12 หลักแรก กรุณาตรวจสอบอีกครั้ง']] },
    { rule: 'address', values: { ...company, tax_address: '' }, errors: [['tax_address', 'กรุณากรอกที่อยู่สำหรับออกใบกำกับภาษี']] },
    { rule: '"delivery address (when delivery by another address)"', values: { ...company, tax_is_delivery_by_tax_address: false, tax_delivery_address: '' }, errors: [['tax_delivery_address', 'กรุณากรอกที่อยู่สำหรับจัดส่งใบกำกับภาษี']] },
    { rule: 'delivery by another address, given', values: { ...company, tax_is_delivery_by_tax_address: 0, tax_delivery_address: 'เชียงใหม่' }, errors: [] },
    { rule: '"company certificate upload" for a juristic person', values: { ...company, tax_company_certificate: [] }, errors: [['tax_company_certificate', 'กรุณาอัพโหลดหนังสือรับรองบริษัท']] },
    { rule: 'no certificate for a normal person', values: { ...person, tax_company_certificate: null }, errors: [] },
    { rule: 'person type required', values: { ...person, tax_person_type: '' }, errors: [['tax_person_type', 'กรุณาเลือกประเภทผู้เสียภาษี']] },
  ])('$rule', ({ values, errors }) => {
    const r = validateTaxInvoice(values);
    expect(r.ok ? [] : r.errors.map((e) => [e.path, renderShown(e.message)])).toEqual(errors);
    expect(r.message && renderShown(r.message)).toBe(errors.length ? 'ข้อมูลใบกำกับภาษีไม่ถูกต้อง' : null);
  });

  it('the certificate may be made optional; an empty form lists the fields in order', () => {
    expect(taxInvoiceErrors({ ...company, tax_company_certificate: null }, { requireCompanyCertificate: false })).toEqual([]);
    expect(taxInvoiceErrors({}).map((e) => e.path)).toEqual(['tax_person_type', 'tax_name_one', 'tax_name_two', 'tax_payer_identification_no', 'tax_address']);
    expect(taxInvoiceSchema().safeParse({}).success).toBe(false);
  });
});
