// The openapi router itself: a response that breaks openapi.yaml is caught (500 INTERNAL_ERROR in
// dev/test, logged), undeclared statuses are reported, request parameters are coerced and checked.
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import { getOperation, listOperations, registerOperations, responseIssues } from '../../server/openapi/router';
import type { ApiError } from '../../server/errors';
import type { AppContext } from '../../server/context';

async function miniApp(strict: boolean, handlers: Parameters<typeof registerOperations>[1]) {
  const app = Fastify({ logger: false });
  await app.register(cookie);
  app.decorate('ctx', { config: { strictResponses: strict }, db: { query: async () => ({ rows: [] }) }, clock: { now: () => new Date() } } as unknown as AppContext);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionState', 'none');
  app.decorateRequest('operation', null);
  app.setErrorHandler((err, _req, reply) => {
    const e = err as ApiError;
    reply.code(e.status ?? 500).send({ success: false, error: { code: e.code ?? 'INTERNAL_ERROR', msg: e.message } });
  });
  registerOperations(app, handlers);
  await app.ready();
  return app;
}

describe('openapi router', () => {
  it('knows every operation of openapi.yaml, with Fastify urls', () => {
    const ops = listOperations();
    expect(ops.length).toBeGreaterThanOrEqual(69);
    expect(getOperation('getCourse')?.url).toBe('/public/courses/:id/:number');
    expect(getOperation('createOrder')?.security).toBe('student');
    expect(getOperation('getCourse')?.security).toBe('optional');
    expect(getOperation('login')?.security).toBe('none');
  });

  it('reports bodies that break the schema and undeclared statuses', () => {
    const op = getOperation('getSiteSettings')!;
    expect(responseIssues(op, 200, { success: true, data: {} }).length).toBeGreaterThan(0);
    expect(responseIssues(op, 418, {})).toEqual([{ field: 'status', msg: '418 is not declared by getSiteSettings' }]);
    expect(responseIssues(op, 404, { success: false, error: { code: 'NOT_FOUND', msg: 'x' } })[0]!.msg).toMatch(/not declared/);
  });

  it('answers 500 INTERNAL_ERROR for a response that breaks the contract (strict), passes it through otherwise', async () => {
    const bad = () => ({ success: true, data: { title: 'only a title' } }) as never;
    const strict = await miniApp(true, { getSiteSettings: bad });
    const r = await strict.inject({ method: 'GET', url: '/api/setting/site/into/1' });
    expect(r.statusCode).toBe(500);
    expect(r.json().error.code).toBe('INTERNAL_ERROR');
    expect(r.body).not.toContain('only a title');
    const lax = await miniApp(false, { getSiteSettings: bad });
    expect((await lax.inject({ method: 'GET', url: '/api/setting/site/into/1' })).statusCode).toBe(200);
  });

  it('coerces path and query parameters, answers the single declared 2xx status', async () => {
    let seen: unknown = null;
    const app = await miniApp(true, {
      getCourseVideoPlaylist: (req) => {
        seen = req.params;
        return { success: true, data: [] };
      },
      registerStudent: () => ({ success: true, createStudent: true, userId: 5 }),
    });
    expect((await app.inject({ method: 'GET', url: '/public/course/videoplaylist/12' })).statusCode).toBe(200);
    expect(seen).toEqual({ courseId: 12 });
    const reg = await app.inject({ method: 'POST', url: '/public/students/course-detail-page', payload: { firstname: 'a', lastname: 'b', email: 'a@example.com' } });
    expect(reg.statusCode).toBe(201);
  });
});
