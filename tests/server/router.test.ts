// The openapi router itself: a response that breaks openapi.yaml is caught (500 INTERNAL_ERROR in
// dev/test, logged), undeclared statuses are reported, request parameters are coerced and checked.
import { dirname } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { getOperation, listOperations, registerOperations, responseIssues, type RegisterOptions } from '../../server/openapi/router';
import { loadSpec, OPENAPI_FILE } from '../../server/openapi/spec';
import type { ApiError } from '../../server/errors';
import type { AppContext } from '../../server/context';

async function miniApp(strict: boolean, handlers: Parameters<typeof registerOperations>[1], options: RegisterOptions = {}) {
  const app = Fastify({ logger: false });
  await app.register(cookie);
  app.decorate('ctx', { config: { strictResponses: strict }, db: { query: async () => ({ rows: [] }) }, clock: { now: () => new Date() } } as unknown as AppContext);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionState', 'none');
  app.decorateRequest('operation', null);
  app.setErrorHandler((err, _req, reply) => {
    const e = err as ApiError;
    reply.code(e.status ?? 500).send({ success: false, error: { code: e.code ?? 'INTERNAL_ERROR', msg: e.message, result: e.result } });
  });
  registerOperations(app, handlers, options);
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

describe('the contract\'s validators, compiled on first use', () => {
  it('loading compiles none; an operation\'s first request is refused as before, its first bad answer caught', async () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    try {
      // openapi.yaml loaded afresh (another path to the same file is not the process's cached
      // copy): the state of a server process that has served nothing yet, whatever other files
      // of this worker already called.
      const spec = loadSpec(`${dirname(OPENAPI_FILE)}/./openapi.yaml`);
      expect(spec === loadSpec()).toBe(false);
      expect(spec.operations.size).toBeGreaterThanOrEqual(69);
      expect(compile).not.toHaveBeenCalled();

      const bad = { method: 'POST' as const, url: '/public/students/course-detail-page?x=1', payload: { firstname: '', email: 'not an e-mail', extra: true } };
      const handlers = { registerStudent: () => ({ success: true, createStudent: true, userId: 5 }) as never, getSiteSettings: () => ({ success: true, data: { title: 'only a title' } }) as never };
      const first = await miniApp(true, handlers, { spec });
      expect(compile).not.toHaveBeenCalled();
      const r = await first.inject(bad);
      expect(compile).toHaveBeenCalled();
      expect(r.statusCode).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_ERROR');
      expect(r.json().error.result.length).toBeGreaterThan(1);
      // The same answer as this worker's router (the process's spec, used before).
      const warm = await miniApp(true, handlers);
      await warm.inject(bad);
      expect(r.json()).toEqual((await warm.inject(bad)).json());
      // The first answer of another operation is checked against its schema.
      const answer = await first.inject({ method: 'GET', url: '/api/setting/site/into/1' });
      expect(answer.statusCode).toBe(500);
      expect(answer.body).not.toContain('only a title');
    } finally {
      compile.mockRestore();
    }
  });

  it('every validator of every operation compiles (a schema Ajv refuses fails here, not on a first request)', () => {
    let responses = 0;
    let bodies = 0;
    for (const op of listOperations()) {
      const { path, query, header } = op.validateParams;
      for (const [where, v] of [['path', path], ['query', query], ['header', header]] as const) {
        expect(v === null, `${op.operationId} ${where} parameters`).toBe(!op.parameters.some((p) => p.in === where));
        if (v !== null) expect(typeof v, `${op.operationId} ${where}`).toBe('function');
      }
      if (op.requestBody?.jsonSchema) {
        expect(typeof op.validateBody, op.operationId).toBe('function');
        bodies++;
      }
      for (const type of op.requestBody?.contentTypes ?? []) if (!type.startsWith('multipart/')) expect(typeof op.validateBodyByType.get(type), `${op.operationId} ${type}`).toBe('function');
      expect(op.validateResponse.keys()).toEqual(op.statuses);
      for (const status of op.statuses) {
        const v = op.validateResponse.get(status);
        expect(v === null || typeof v === 'function', `${op.operationId} ${status}`).toBe(true);
        if (v) responses++;
        expect(op.validateResponse.get(status), 'kept after the first get').toBe(v);
      }
    }
    expect(bodies).toBeGreaterThan(20);
    expect(responses).toBeGreaterThan(500);
  });
});
