/** Student actors (tags students, uploads, email): registration, profile, tax, uploads. */
import type { components } from '../../../generated/api';
import type { RegistrationPayload, TaxInfo, UploadRequest } from '../../../machines/shared/api';
import { api } from '../client';
import { operation } from './call';

type Schemas = components['schemas'];

export const studentActors = {
  registerStudent: operation('registerStudent', (input: RegistrationPayload, signal) => api.POST('/public/students/course-detail-page', { body: input, signal })),
  listCustomLabels: operation('listCustomLabels', (_input: void, signal) => api.GET('/public/customlabel', { signal })),
  listUserGroups: operation('listUserGroups', (_input: void, signal) => api.GET('/api/user/group', { signal })),
  getStudentProfile: operation('getStudentProfile', (_input: void, signal) => api.GET('/private/students', { signal })),
  updateStudentTax: operation('updateStudentTax', (input: TaxInfo, signal) => api.PUT('/private/myaccount/students/tax', { body: input, signal })),
  listShippingAddresses: operation('listShippingAddresses', (_input: void, signal) => api.GET('/private/shipping/addresses', { signal })),
  createShippingAddress: operation('createShippingAddress', (input: Schemas['ShippingAddressCreate'], signal) => api.POST('/private/shipping/addresses', { body: input, signal })),
  updateShippingAddress: operation('updateShippingAddress', (input: { addressId: number; body: Schemas['ShippingAddressCreate'] }, signal) =>
    api.PUT('/private/shipping/addresses/{addressId}', { params: { path: { addressId: input.addressId } }, body: input.body, signal }),
  ),
  sendRegistrationEmail: operation('sendRegistrationEmail', (input: Schemas['RegistrationEmailRequest'], signal) => api.POST('/api/send/to/email/registration', { body: input, signal })),
  /** One file in the multipart field `imageinput`. */
  uploadFile: operation('uploadFile', (input: UploadRequest, signal) =>
    api.POST('/api/home/test_upload', {
      body: input as unknown as Schemas['UploadRequest'],
      bodySerializer: (body: unknown) => {
        const form = new FormData();
        const file = (body as UploadRequest).imageinput;
        form.append('imageinput', file, file instanceof File ? file.name : 'upload');
        return form;
      },
      signal,
    }),
  ),
  getStorageDetails: operation('getStorageDetails', (_input: void, signal) => api.GET('/api/storage/details', { signal })),
};
