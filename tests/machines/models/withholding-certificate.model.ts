import assert from 'node:assert/strict';
import { withholdingCertificateMachine } from '../../../machines/documents/withholding-certificate.machine';
import { selectCanChoose, selectCertificatePhase, selectRejection } from '../../../machines/documents/withholding-certificate.selectors';
import { MSG } from '../../../domain/messages';
import { defineModel } from '../support/model';

const ORDER = 77;
const certificate = (status: 'submitted' | 'received' | 'rejected') => ({
  id: 5,
  status,
  file_name: '50tawi.pdf',
  uploaded_at: '2026-01-05T03:00:00.000Z',
  decided_at: status === 'submitted' ? null : '2026-01-06T03:00:00.000Z',
  reason: status === 'rejected' ? 'unsigned' : null,
});
const withholding = (c: ReturnType<typeof certificate> | null, canUpload = true) => ({ amount: 3_000, currency_code: 'THB' as const, certificate: c, can_upload: canUpload });
const pdf = Object.assign(new Blob(['%PDF-1.4'], { type: 'application/pdf' }), { name: '50tawi.pdf' });
const exe = Object.assign(new Blob(['MZ'], { type: 'application/x-msdownload' }), { name: 'tool.exe' });

export const withholdingCertificateModel = defineModel({
  machine: withholdingCertificateMachine,
  file: 'machines/documents/withholding-certificate.machine.ts',
  input: { orderId: ORDER, withholding: withholding(null) },
  variants: [
    { name: 'not offered (unpaid)', input: { orderId: ORDER, withholding: withholding(null, false) } },
    { name: 'nothing withheld', input: { orderId: ORDER, withholding: null } },
    { name: 'one waits for the shop', input: { orderId: ORDER, withholding: withholding(certificate('submitted')) } },
    { name: 'rejected by the shop', input: { orderId: ORDER, withholding: withholding(certificate('rejected')) } },
    { name: 'received by the shop', input: { orderId: ORDER, withholding: withholding(certificate('received'), false) } },
  ],
  userEvents: [
    { type: 'file.choose', file: pdf },
    { type: 'file.choose', file: exe },
    { type: 'upload.retry' },
    { type: 'order.read', withholding: withholding(certificate('received'), false) },
    { type: 'order.read', withholding: withholding(certificate('rejected')) },
  ],
  outcomes: {
    uploadWithholdingCertificate: {
      done: [{ success: true, data: certificate('submitted') }],
      error: [{ status: 409, code: 'WITHHOLDING_CERTIFICATE_RECEIVED', msg: 'received already' }, new Error('network')],
    },
  },
  serialize: (s) =>
    JSON.stringify([s.value, s.context.certificate?.status ?? null, s.context.withholding?.can_upload ?? null, s.context.file ? s.context.file.name : null, s.context.error === null ? null : typeof s.context.error === 'string' ? 'text' : s.context.error.key]),
  accepts: (s) => {
    if (s.matches('idle') || s.matches('waiting')) return ['file.choose', 'order.read'];
    if (s.matches('failed')) return ['file.choose', 'upload.retry', 'order.read'];
    if (s.matches('closed')) return ['order.read'];
    return [];
  },
  check: (s, step) => {
    const phase = selectCertificatePhase(s);
    assert.ok(s.matches(phase) || (phase === 'closed' && s.matches('closed')));
    assert.equal(selectCanChoose(s), ['idle', 'failed', 'waiting'].includes(phase));
    if (s.matches('uploading')) assert.deepEqual(step.scripts.inputsOf('uploadWithholdingCertificate').at(-1), { orderId: ORDER, file: pdf });
    if (s.matches('received')) assert.equal(s.context.certificate?.status, 'received');
    if (s.matches('waiting')) assert.equal(s.context.certificate?.status, 'submitted');
    if (s.matches('idle') && s.context.certificate?.status === 'rejected') assert.equal(selectRejection(s), 'unsigned');
    // A refused file is never sent: its reason is shown where the buyer chose it.
    if (step.event.type === 'file.choose' && (step.event as unknown as { file: { name: string } }).file.name === 'tool.exe') {
      assert.ok(!s.matches('uploading'));
      assert.deepEqual(s.context.error, MSG.FILE_TYPE_NOT_ALLOWED);
    }
    if (s.matches('failed')) assert.notEqual(s.context.error, null);
  },
});
