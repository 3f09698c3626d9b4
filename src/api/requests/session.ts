/** Session requests (tag auth): log in, non-member log in, log out, who am I. */
import type { LoginRequest, NonMemberLoginRequest } from '../../../machines/shared/api';
import { api } from '../client';
import { request } from '../request';

export const sessionRequests = {
  login: request('login', (input: LoginRequest, signal) => api.POST('/public/auth/login', { body: input, signal })),
  loginNonMember: request('loginNonMember', (input: NonMemberLoginRequest, signal) => api.POST('/public/auth/login/non-member', { body: input, signal })),
  logout: request('logout', (_input: void, signal) => api.POST('/public/auth/logout', { signal })),
  getSession: request('getSession', (_input: void, signal) => api.GET('/public/auth/me', { signal })),
};
