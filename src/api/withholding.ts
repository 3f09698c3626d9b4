/** The buyer's withholding certificate upload (uploadWithholdingCertificate), one multipart file in the field `file`. */
import type { components } from '../../generated/api';
import type { UploadWithholdingCertificateInput, UploadWithholdingCertificateResponse } from '../../machines/shared/api';
import { withholdingCertificateMachine } from '../../machines/documents/withholding-certificate.machine';
import { api } from './client';
import { operation } from './actors/call';

type Schemas = components['schemas'];

export const withholdingActors = {
  uploadWithholdingCertificate: operation('uploadWithholdingCertificate', (input: UploadWithholdingCertificateInput, signal) =>
    api.POST('/private/orders/{orderId}/withholding-certificate', {
      params: { path: { orderId: input.orderId } },
      body: { file: input.file } as unknown as Schemas['WithholdingCertificateUpload'],
      bodySerializer: (body: unknown) => {
        const form = new FormData();
        const file = (body as { file: UploadWithholdingCertificateInput['file'] }).file;
        form.append('file', file, file.name);
        return form;
      },
      signal,
    }) as Promise<{ data?: UploadWithholdingCertificateResponse; error?: unknown; response: Response }>,
  ),
};

/** The certificate machine with the app's actor. */
export const withholdingCertificateLogic = withholdingCertificateMachine.provide({ actors: withholdingActors });
