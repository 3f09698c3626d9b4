/**
 * The buyer's withholding tax certificate of one paid order (หนังสือรับรองการหักภาษี ณ ที่จ่าย),
 * on the order list: choose a file → uploading → uploaded, waiting for the shop (or failed, with
 * retry) → received by the shop later, which the page learns from the order's data
 * (`listOrderDocuments` read again after the shop's decision is pushed: `order.read`).
 *
 * Where it starts comes from the order's data: nothing withheld or not payable yet → `closed`
 * (nothing offered); a certificate received → `received`; one waiting → `waiting`; none or a
 * rejected one → `idle` (the rejection's reason shown). A file the rules refuse
 * (domain/documents/certificate.ts) is not sent: the reason is shown and another can be chosen.
 */
import { assign, fromPromise, setup } from 'xstate';
import { certificateFileProblem } from '../../domain/documents/certificate';
import type { Shown } from '../../domain/messages';
import { shownOf } from '../shared/api-error';
import type { OrderWithholding, UploadWithholdingCertificateInput, UploadWithholdingCertificateResponse, WithholdingCertificate } from '../shared/api';

export type CertificateFile = Blob & { name: string };

export interface WithholdingCertificateInput {
  orderId: number;
  /** The order's withholding as last read (null: nothing withheld, or the order is not paid). */
  withholding: OrderWithholding | null;
}

export interface WithholdingCertificateContext {
  orderId: number;
  withholding: OrderWithholding | null;
  /** The certificate the shop has (from the order's data, or the upload's answer). */
  certificate: WithholdingCertificate | null;
  /** The file being sent (kept for a retry). */
  file: CertificateFile | null;
  /** Why the last choice or upload failed. */
  error: Shown | null;
}

export type WithholdingCertificateEvent =
  | { type: 'file.choose'; file: CertificateFile }
  | { type: 'upload.retry' }
  | { type: 'order.read'; withholding: OrderWithholding | null };

const statusOf = (c: WithholdingCertificateContext) => c.certificate?.status ?? null;

const chosenFile = ({ event }: { event: { file: CertificateFile } }) => event.file;
/** A file chosen (offered, after a failure, or to replace the one waiting): sent when the rules accept it, else the reason is shown. */
const chooseFile = [
  { guard: { type: 'fileAcceptable', params: chosenFile }, target: 'uploading', actions: { type: 'keepFile', params: chosenFile } },
  { actions: { type: 'refuseFile', params: chosenFile } },
] as const;

export const withholdingCertificateMachine = setup({
  types: {
    context: {} as WithholdingCertificateContext,
    events: {} as WithholdingCertificateEvent,
    input: {} as WithholdingCertificateInput,
  },
  actors: {
    uploadWithholdingCertificate: fromPromise<UploadWithholdingCertificateResponse, UploadWithholdingCertificateInput>(async () => {
      throw new Error('uploadWithholdingCertificate is provided by the app');
    }),
  },
  guards: {
    isReceived: ({ context }) => statusOf(context) === 'received',
    isWaiting: ({ context }) => statusOf(context) === 'submitted',
    canUpload: ({ context }) => context.withholding?.can_upload === true,
    fileAcceptable: (_, file: CertificateFile) => certificateFileProblem({ name: file.name, type: file.type, size: file.size }) === null,
    readReceived: (_, w: OrderWithholding | null) => w?.certificate?.status === 'received',
  },
  actions: {
    keepRead: assign((_, w: OrderWithholding | null) => ({ withholding: w, certificate: w?.certificate ?? null })),
    keepFile: assign((_, file: CertificateFile) => ({ file, error: null })),
    refuseFile: assign((_, file: CertificateFile) => ({ error: certificateFileProblem({ name: file.name, type: file.type, size: file.size }) })),
    keepAnswer: assign((_, answer: UploadWithholdingCertificateResponse) => ({ certificate: answer.data, file: null, error: null })),
    keepError: assign((_, error: Shown) => ({ error })),
  },
}).createMachine({
  id: 'withholdingCertificate',
  context: ({ input }) => ({ orderId: input.orderId, withholding: input.withholding, certificate: input.withholding?.certificate ?? null, file: null, error: null }),
  initial: 'reading',
  states: {
    /** Where the order's data puts the certificate (transient). */
    reading: {
      always: [{ guard: 'isReceived', target: 'received' }, { guard: 'isWaiting', target: 'waiting' }, { guard: 'canUpload', target: 'idle' }, { target: 'closed' }],
    },
    /** Nothing offered (nothing withheld, or the order not paid). */
    closed: {
      on: { 'order.read': { target: 'reading', actions: { type: 'keepRead', params: ({ event }) => event.withholding } } },
    },
    /** Offered: choose the file (a rejected certificate's reason is shown). */
    idle: {
      on: {
        'file.choose': chooseFile,
        'order.read': { target: 'reading', actions: { type: 'keepRead', params: ({ event }) => event.withholding } },
      },
    },
    uploading: {
      invoke: {
        id: 'uploadWithholdingCertificate',
        src: 'uploadWithholdingCertificate',
        input: ({ context }) => ({ orderId: context.orderId, file: context.file! }),
        onDone: { target: 'waiting', actions: { type: 'keepAnswer', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'keepError', params: ({ event }) => shownOf(event.error) } },
      },
    },
    /** The upload failed: the reason, retry with the same file or choose another. */
    failed: {
      on: {
        'upload.retry': { target: 'uploading' },
        'file.choose': chooseFile,
        // The order's data read again (another order's change): only the shop's receipt moves on.
        'order.read': [{ guard: { type: 'readReceived', params: ({ event }) => event.withholding }, target: 'reading', actions: { type: 'keepRead', params: ({ event }) => event.withholding } }],
      },
    },
    /** Uploaded: waits for the shop; another file may replace it. */
    waiting: {
      on: {
        'file.choose': chooseFile,
        'order.read': { target: 'reading', actions: { type: 'keepRead', params: ({ event }) => event.withholding } },
      },
    },
    /** The shop recorded it: nothing more to do. */
    received: {},
  },
});
