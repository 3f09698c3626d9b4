/** Student requests (tags students, uploads, email): registration, profile, tax, uploads. */
import type { components } from '../../../generated/api';
import type { RegistrationPayload, TaxInfo, UploadRequest } from '../../../machines/shared/api';
import { api } from '../client';
import { request } from '../request';

type Schemas = components['schemas'];

export const studentRequests = {
  registerStudent: request('registerStudent', (input: RegistrationPayload, signal) => api.POST('/public/students/course-detail-page', { body: input, signal })),
  listCustomLabels: request('listCustomLabels', (_input: void, signal) => api.GET('/public/customlabel', { signal })),
  listUserGroups: request('listUserGroups', (_input: void, signal) => api.GET('/api/user/group', { signal })),
  getStudentProfile: request('getStudentProfile', (_input: void, signal) => api.GET('/private/students', { signal })),
  updateStudentTax: request('updateStudentTax', (input: TaxInfo, signal) => api.PUT('/private/myaccount/students/tax', { body: input, signal })),
  listShippingAddresses: request('listShippingAddresses', (_input: void, signal) => api.GET('/private/shipping/addresses', { signal })),
  createShippingAddress: request('createShippingAddress', (input: Schemas['ShippingAddressCreate'], signal) => api.POST('/private/shipping/addresses', { body: input, signal })),
  updateShippingAddress: request('updateShippingAddress', (input: { addressId: number; body: Schemas['ShippingAddressCreate'] }, signal) =>
    api.PUT('/private/shipping/addresses/{addressId}', { params: { path: { addressId: input.addressId } }, body: input.body, signal }),
  ),
  /** "Send me a sign-in link": the way back in for a buyer without a password (or a member who forgot it). */
  requestSignInLink: request('requestSignInLink', (input: Schemas['SignInLinkRequest'], signal) => api.POST('/public/auth/link', { body: input, signal })),
  /** A buyer signed in by a link sets a username and password (or a member a new password). */
  setStudentPassword: request('setStudentPassword', (input: Schemas['SetPasswordRequest'], signal) => api.PUT('/private/students/password', { body: input, signal })),
  sendRegistrationEmail: request('sendRegistrationEmail', (input: Schemas['RegistrationEmailRequest'], signal) => api.POST('/api/send/to/email/registration', { body: input, signal })),
  /**
   * One file in the multipart field `imageinput`. A visitor without an account (layout-4
   * registration) is answered 403 UPLOAD_TOKEN_REQUIRED: then it gets the short-lived upload token
   * (createUploadToken, an httpOnly cookie) and sends the file once more.
   */
  uploadFile: request('uploadFile', async (input: UploadRequest, signal) => {
    const send = () =>
      api.POST('/api/home/test_upload', {
        body: input as unknown as Schemas['UploadRequest'],
        bodySerializer: (body: unknown) => {
          const form = new FormData();
          const file = (body as UploadRequest).imageinput;
          form.append('imageinput', file, file instanceof File ? file.name : 'upload');
          return form;
        },
        signal,
      });
    const first = await send();
    if (first.response.status !== 403 || (first.error as { error?: { code?: string } } | undefined)?.error?.code !== 'UPLOAD_TOKEN_REQUIRED') return first;
    const token = await api.POST('/public/upload/token', { signal });
    return token.response.ok ? send() : first;
  }),
  getStorageDetails: request('getStorageDetails', (_input: void, signal) => api.GET('/api/storage/details', { signal })),
};
