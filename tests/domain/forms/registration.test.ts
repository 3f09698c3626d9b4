import { describe, expect, it } from 'vitest';
import {
  customLabelErrors,
  fieldToggle,
  groupOf,
  registerFormOf,
  registrationSchema,
  validateRegistration,
} from '../../../domain/forms/registration';
import type { RegistrationConfig, RegistrationValues } from '../../../domain/forms/registration';
import { firstError } from '../../../domain/forms/common';
import type { CustomLabel, RegisterFormSettings } from '../../../domain/types';
import { msgOf, renderShown } from '../../../domain/messages';

const allOn: RegisterFormSettings = registerFormOf({ firstname: 'required', lastname: 'required', nickname: 'required', tel: 'required', address: 'required', image_profile: 'required' });
const good: RegistrationValues = {
  firstname: 'สมชาย',
  lastname: 'ใจดี',
  email: 'somchai@example.co.th',
  tel: '0812345678',
  nickname: 'ชาย',
  address: 'กรุงเทพ',
  displayImgUrl: 'me.png',
};
const messagesFor = (values: RegistrationValues, config: RegistrationConfig) =>
  validateRegistration(values, config).errors.map((e) => [e.path, renderShown(e.message)]);

describe('spec 5 "Registration" rules', () => {
  it('a complete form passes and is trimmed', () => {
    const r = validateRegistration({ ...good, firstname: '  สมชาย ' }, { registerForm: allOn });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.data.firstname).toBe('สมชาย');
    expect(r.groups).toEqual([]);
  });

  it.each<{ rule: string; values: RegistrationValues; config: RegistrationConfig; errors: [string, string][] }>([
    { rule: 'firstname required when enabled and required', values: { ...good, firstname: '' }, config: { registerForm: allOn }, errors: [['firstname', 'กรุณากรอกชื่อ']] },
    { rule: 'lastname required when enabled and required', values: { ...good, lastname: null }, config: { registerForm: allOn }, errors: [['lastname', 'กรุณากรอกนามสกุล']] },
    { rule: 'firstname not required when the toggle says so', values: { ...good, firstname: '' }, config: { registerForm: { ...allOn, firstname: { is_enable: true, is_require: false } } }, errors: [] },
    { rule: 'missing registerForm: names enabled and required', values: { email: 'a@b.co', firstname: '', lastname: 'x' }, config: {}, errors: [['firstname', 'กรุณากรอกชื่อ']] },
    { rule: '"max 255 characters (message: Please enter name, not over 255 characters)"', values: { ...good, firstname: 'ก'.repeat(256) }, config: { registerForm: allOn }, errors: [['firstname', 'Please enter name, not over 255 characters']] },
    { rule: '255 characters is fine', values: { ...good, lastname: 'a'.repeat(255) }, config: { registerForm: allOn }, errors: [] },
    { rule: '"Email: always required"', values: { ...good, email: ' ' }, config: { registerForm: {} }, errors: [['email', 'กรุณากรอกอีเมล']] },
    { rule: 'email: standard address pattern', values: { ...good, email: 'somchai@' }, config: { registerForm: allOn }, errors: [['email', 'รูปแบบอีเมลไม่ถูกต้อง']] },
    { rule: 'phone required when enabled and required', values: { ...good, tel: '' }, config: { registerForm: allOn }, errors: [['tel', 'กรุณากรอกเบอร์โทรศัพท์']] },
    { rule: '"Phone: digits only"', values: { ...good, tel: '081-234-5678' }, config: { registerForm: allOn }, errors: [['tel', 'เบอร์โทรศัพท์ต้องเป็นตัวเลข 9-10 หลัก']] },
    { rule: 'phone: 8 digits is too short', values: { ...good, tel: '08123456' }, config: { registerForm: allOn }, errors: [['tel', 'เบอร์โทรศัพท์ต้องเป็นตัวเลข 9-10 หลัก']] },
    { rule: 'phone: 11 digits is too long', values: { ...good, tel: '08123456789' }, config: { registerForm: allOn }, errors: [['tel', 'เบอร์โทรศัพท์ต้องเป็นตัวเลข 9-10 หลัก']] },
    { rule: 'phone: 9 digits is fine', values: { ...good, tel: '021234567' }, config: { registerForm: allOn }, errors: [] },
    { rule: '"minimum check skipped for one configured host"', values: { ...good, tel: '1234' }, config: { registerForm: allOn, skipPhoneMinimum: true }, errors: [] },
    { rule: 'phone enabled but optional: empty is fine, a bad number is not', values: { ...good, tel: 'abc' }, config: { registerForm: { ...allOn, tel: { is_enable: true, is_require: false } } }, errors: [['tel', 'เบอร์โทรศัพท์ต้องเป็นตัวเลข 9-10 หลัก']] },
    { rule: 'phone disabled: not checked', values: { ...good, tel: 'abc' }, config: { registerForm: { ...allOn, tel: { is_enable: false, is_require: true } } }, errors: [] },
    { rule: 'nickname required when enabled and required', values: { ...good, nickname: '' }, config: { registerForm: allOn }, errors: [['nickname', 'กรุณากรอกชื่อเล่น']] },
    { rule: 'address required when enabled and required', values: { ...good, address: '' }, config: { registerForm: allOn }, errors: [['address', 'กรุณากรอกที่อยู่']] },
    { rule: '"Profile picture: required when enabled and required (Please upload Profile Picture)"', values: { ...good, displayImgUrl: [] }, config: { registerForm: allOn }, errors: [['displayImgUrl', 'Please upload Profile Picture']] },
    { rule: 'profile picture not required when off', values: { ...good, displayImgUrl: null }, config: { registerForm: { ...allOn, image_profile: { is_enable: false, is_require: true } } }, errors: [] },
    { rule: '"User group required when group selection is on"', values: good, config: { registerForm: allOn, is_student_select_group: true }, errors: [['studentGroupKpi', 'กรุณาเลือกกลุ่มผู้ใช้']] },
    { rule: 'user group chosen', values: { ...good, studentGroupKpi: 3 }, config: { registerForm: allOn, is_student_select_group: 1 }, errors: [] },
  ])('$rule', ({ values, config, errors }) => {
    expect(messagesFor(values, config)).toEqual(errors);
  });
});

describe('spec 5 / decisions.md #6 "Layout-four registration: username ... letters, digits and @ - _ .; password same character set, required, at least 6 characters; confirmation required and equal"', () => {
  const login = { ...good, username: 'somchai.j@x_y-z', password: 'abc_12', confirm_password: 'abc_12' };
  const config: RegistrationConfig = { registerForm: allOn, withLogin: true };
  it.each<{ rule: string; over: Partial<RegistrationValues>; errors: [string, string][] }>([
    { rule: 'valid login fields', over: {}, errors: [] },
    { rule: 'username required', over: { username: '' }, errors: [['username', 'กรุณากรอกชื่อผู้ใช้']] },
    { rule: 'username: no spaces or other characters', over: { username: 'som chai!' }, errors: [['username', 'ชื่อผู้ใช้ใช้ได้เฉพาะตัวอักษร ตัวเลข และ @ - _ .']] },
    { rule: 'username: Thai letters are outside the set', over: { username: 'สมชาย' }, errors: [['username', 'ชื่อผู้ใช้ใช้ได้เฉพาะตัวอักษร ตัวเลข และ @ - _ .']] },
    { rule: 'password required', over: { password: '', confirm_password: '' }, errors: [['password', 'กรุณากรอกรหัสผ่าน'], ['confirm_password', 'กรุณายืนยันรหัสผ่าน']] },
    { rule: 'password same character set', over: { password: 'abc 123', confirm_password: 'abc 123' }, errors: [['password', 'รหัสผ่านใช้ได้เฉพาะตัวอักษร ตัวเลข และ @ - _ .']] },
    { rule: 'password at least 6 characters', over: { password: 'ab1', confirm_password: 'ab1' }, errors: [['password', 'รหัสผ่านต้องมีอย่างน้อย 6 ตัวอักษร']] },
    { rule: 'confirmation required', over: { confirm_password: '' }, errors: [['confirm_password', 'กรุณายืนยันรหัสผ่าน']] },
    { rule: 'confirmation equal to password', over: { confirm_password: 'abc_13' }, errors: [['confirm_password', 'รหัสผ่านไม่ตรงกัน']] },
  ])('$rule', ({ over, errors }) => {
    expect(messagesFor({ ...login, ...over }, config)).toEqual(errors);
  });

  it('without layout-4 login the fields are not checked', () => {
    expect(messagesFor({ ...good, username: '!!', password: '1' }, { registerForm: allOn })).toEqual([]);
  });
});

describe('spec 5 "Custom labels marked required must be filled (empty value or list is invalid)" — all six types', () => {
  const labels: CustomLabel[] = [
    { id: 1, type_label: 'inputtext', label: 'โรงเรียน', order_label: 1, required: 1, item_list: [] },
    { id: 2, type_label: 'select', label: 'ระดับชั้น', order_label: 2, required: 1, item_list: ['ม.1', 'ม.2'] },
    { id: 3, type_label: 'multiple', label: 'วิชาที่สนใจ', order_label: 3, required: 1, item_list: ['คณิต', 'อังกฤษ'] },
    { id: 4, type_label: 'checkbox', label: 'ยอมรับเงื่อนไข', order_label: 4, required: 1, item_list: ['ยอมรับ'] },
    { id: 5, type_label: 'radio', label: 'เพศ', order_label: 5, required: 1, item_list: ['ชาย', 'หญิง'] },
    { id: 6, type_label: 'image', label: 'รูปบัตรนักเรียน', order_label: 6, required: 1, item_list: [] },
    { id: 7, type_label: 'inputtext', label: 'ไม่บังคับ', order_label: 0, required: 0, item_list: [] },
  ];
  const filled = [
    { id: 1, value: 'สาธิต' },
    { id: 2, value: 'ม.1' },
    { id: 3, value: ['คณิต'] },
    { id: 4, value: ['ยอมรับ'] },
    { id: 5, value: 'หญิง' },
    { id: 6, value: 'card.png' },
  ];

  it('all filled: valid; the optional one may stay empty', () => {
    expect(customLabelErrors(labels, filled)).toEqual([]);
  });

  it.each([
    [1, '  '],
    [2, ''],
    [3, []],
    [4, ['']],
    [5, null],
    [6, []],
  ])('label %i with value %j is invalid', (id, value) => {
    const answers = filled.map((a) => (a.id === id ? { id, value } : a));
    const label = labels.find((l) => l.id === id) as CustomLabel;
    expect(customLabelErrors(labels, answers)).toEqual([{ path: `customLabel.${id}`, message: msgOf('CUSTOM_FIELD_REQUIRED', { label: label.label }) }]);
  });

  it('reads the payload JSON text too; a missing answer is empty; bad JSON counts as no answers', () => {
    expect(customLabelErrors(labels, JSON.stringify(filled))).toEqual([]);
    expect(customLabelErrors(labels, JSON.stringify(filled.slice(1))).map((e) => e.path)).toEqual(['customLabel.1']);
    expect(customLabelErrors(labels, '{not json').length).toBe(6);
    expect(customLabelErrors(labels, '{"id":1}').length).toBe(6);
    expect(customLabelErrors(labels, null).length).toBe(6);
  });

  it('inside the registration form, in display order', () => {
    const r = validateRegistration({ ...good, customLabel: filled.filter((a) => a.id !== 2 && a.id !== 5) }, { registerForm: allOn, customLabels: labels });
    expect(r.errors.map((e) => e.path)).toEqual(['customLabel.2', 'customLabel.5']);
  });
});

describe('spec 5 "Invalid-data notifications are split into contact info, login info and tax invoice"', () => {
  it('groups errors with their notification text', () => {
    const r = validateRegistration(
      { ...good, email: '', username: '', password: 'abcdef', confirm_password: 'abcdef', is_require_tax_invoice: true, tax_person_type: 'juristic_person' },
      { registerForm: allOn, withLogin: true, taxInvoice: true },
    );
    expect(r.ok).toBe(false);
    expect(r.groups.map((g) => [g.group, renderShown(g.message), g.errors.length])).toEqual([
      ['contact', 'ข้อมูลติดต่อไม่ถูกต้อง', 1],
      ['login', 'ข้อมูลเข้าสู่ระบบไม่ถูกต้อง', 1],
      ['tax', 'ข้อมูลใบกำกับภาษีไม่ถูกต้อง', 5],
    ]);
    expect(renderShown(firstError(r))).toBe('กรุณากรอกอีเมล');
  });

  it('the tax part is checked only when enabled and requested', () => {
    const values = { ...good, is_require_tax_invoice: true };
    expect(validateRegistration(values, { registerForm: allOn }).ok).toBe(true);
    expect(validateRegistration({ ...good, is_require_tax_invoice: false }, { registerForm: allOn, taxInvoice: true }).ok).toBe(true);
    expect(validateRegistration(values, { registerForm: allOn, taxInvoice: true }).ok).toBe(false);
  });

  it.each([
    ['email', 'contact'],
    ['customLabel.3', 'contact'],
    ['studentGroupKpi', 'contact'],
    ['username', 'login'],
    ['confirm_password', 'login'],
    ['tax_address', 'tax'],
  ])('groupOf(%s) = %s', (path, group) => {
    expect(groupOf(path)).toBe(group);
  });

  it('fieldToggle: missing toggles; schema builds without config', () => {
    expect(fieldToggle({}, 'tel')).toEqual({ enabled: false, required: false });
    expect(fieldToggle({ registerForm: { tel: { is_enable: 0, is_require: 1 } } }, 'tel')).toEqual({ enabled: false, required: false });
    expect(registrationSchema().safeParse({ firstname: 'a', lastname: 'b', email: 'a@b.co' }).success).toBe(true);
  });
});

describe('registerFormOf', () => {
  it("gives each field's toggle: required is asked and required, optional asked only, off neither", () => {
    const form = registerFormOf({ firstname: 'required', lastname: 'required', nickname: 'optional', tel: 'off', address: 'optional', image_profile: 'off' });
    expect(form.firstname).toEqual({ is_enable: true, is_require: true });
    expect(form.nickname).toEqual({ is_enable: true, is_require: false });
    expect(form.tel).toEqual({ is_enable: false, is_require: false });
    expect(fieldToggle({ registerForm: form }, 'address')).toEqual({ enabled: true, required: false });
    expect(fieldToggle({ registerForm: form }, 'image_profile')).toEqual({ enabled: false, required: false });
  });
});
