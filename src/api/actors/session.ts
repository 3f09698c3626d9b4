/** Session actors (tag auth): log in, non-member log in, log out, who am I. */
import type { LoginRequest, NonMemberLoginRequest } from '../../../machines/shared/api';
import { api } from '../client';
import { operation } from './call';

export const sessionActors = {
  login: operation('login', (input: LoginRequest, signal) => api.POST('/public/auth/login', { body: input, signal })),
  loginNonMember: operation('loginNonMember', (input: NonMemberLoginRequest, signal) => api.POST('/public/auth/login/non-member', { body: input, signal })),
  logout: operation('logout', (_input: void, signal) => api.POST('/public/auth/logout', { signal })),
  getSession: operation('getSession', (_input: void, signal) => api.GET('/public/auth/me', { signal })),
};
