/**
 * The session cookie `sid`: httpOnly, SameSite=Lax, Path=/, and Secure whenever PUBLIC_ORIGIN is
 * https (or the request came over https through a trusted proxy); COOKIE_SECURE overrides.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { SESSION_COOKIE } from './sessions';
import { servedOverHttps } from '../headers';

export function secureCookie(req: FastifyRequest, config: Config): boolean {
  if (config.cookieSecure !== 'auto') return config.cookieSecure;
  return servedOverHttps(req, config);
}

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, config: Config, token: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: secureCookie(req, config),
    expires: expiresAt,
  });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: secureCookie(req, config) });
}
