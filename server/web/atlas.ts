/**
 * The flow atlas (src/atlas) in the demo shop: `npm start` serves it at /__atlas/ — never a
 * production server (server/app.ts registers this plugin only when config.demo, i.e. NODE_ENV is
 * not production). Under `npm run dev` Vite serves the same page at the same address
 * (vite.config.ts atlasDev).
 * - GET /__atlas/: the page, built on first request (and again when its sources or the drawings
 *   are newer) by `vite build --config src/atlas/vite.config.ts` into node_modules/.cache/
 *   course-atlas — it is not part of dist/, so a production image never holds it.
 * - GET /__atlas/assets/*: its bundle.
 * - GET /__atlas/live: 200, the built app's `?inspect…` modes ask it before loading the
 *   inspector (src/inspect); a production server answers 404, so they stay off there.
 * - GET /__atlas/reports/machines.json | e2e.json: the tests' coverage reports
 *   (.test-reports/machines-report.json by `npm run machines:report`, .test-reports/e2e-report.json by
 *   `npm run e2e:report`), drawn on the charts.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';

export const ATLAS_PREFIX = '/__atlas';

/** The report files the atlas reads, by the name it asks for. */
export const ATLAS_REPORTS: Record<string, string> = {
  'machines.json': join('.test-reports', 'machines-report.json'),
  'e2e.json': join('.test-reports', 'e2e-report.json'),
};

/** A report's text, or null when that test run has not written it (or the name is not one). */
export function readAtlasReport(root: string, name: string): string | null {
  const file = ATLAS_REPORTS[name];
  if (!file) return null;
  try {
    return readFileSync(join(root, file), 'utf8');
  } catch {
    return null;
  }
}

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = 0;
  for (const f of readdirSync(path, { recursive: true })) {
    const st = statSync(join(path, String(f)));
    if (st.isFile()) t = Math.max(t, st.mtimeMs);
  }
  return t;
}

export interface AtlasOptions {
  /** The repository root (where src/atlas and docs/machines are). */
  root: string;
  /** Where the page is built (default node_modules/.cache/course-atlas). */
  outDir?: string;
}

export async function atlasPlugin(app: FastifyInstance, opts: AtlasOptions): Promise<void> {
  const root = resolve(opts.root);
  const outDir = resolve(opts.outDir ?? join(root, 'node_modules', '.cache', 'course-atlas'));
  const page = join(outDir, 'src', 'atlas', 'index.html');
  let building: Promise<void> | null = null;

  const stale = () => {
    const built = existsSync(page) ? statSync(page).mtimeMs : 0;
    return built < Math.max(newest(join(root, 'src', 'atlas')), newest(join(root, 'src', 'inspect')), newest(join(root, 'docs', 'machines')));
  };
  const build = () =>
    new Promise<void>((ok, fail) => {
      app.log.info('building the flow atlas (vite build --config src/atlas/vite.config.ts)');
      const child = spawn(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(root, 'src', 'atlas', 'vite.config.ts'), '--logLevel', 'warn'], {
        cwd: root,
        env: { ...process.env, ATLAS_OUT_DIR: outDir },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
      child.on('error', fail);
      child.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`the atlas build failed (${code}): ${err}`))));
    });
  const ready = async () => {
    if (!stale()) return;
    building ??= build().finally(() => (building = null));
    await building;
  };

  app.get(ATLAS_PREFIX, async (_req, reply) => reply.redirect(`${ATLAS_PREFIX}/`));
  app.get(`${ATLAS_PREFIX}/`, async (_req, reply) => {
    await ready();
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(readFileSync(page, 'utf8'));
  });
  app.get(`${ATLAS_PREFIX}/assets/*`, async (req, reply) => {
    const name = (req.params as { '*': string })['*'];
    const file = resolve(outDir, 'assets', name);
    if (!file.startsWith(join(outDir, 'assets') + sep) || !existsSync(file)) return reply.code(404).send({ success: false, error: { code: 'NOT_FOUND', msg: 'Not found' } });
    const type = file.endsWith('.js') ? 'text/javascript; charset=utf-8' : file.endsWith('.css') ? 'text/css; charset=utf-8' : 'application/octet-stream';
    return reply.header('cache-control', 'no-cache').type(type).send(readFileSync(file));
  });
  app.get(`${ATLAS_PREFIX}/live`, async (_req, reply) => reply.header('cache-control', 'no-store').send({ success: true, data: { inspect: true } }));
  app.get(`${ATLAS_PREFIX}/reports/:name`, async (req, reply) => {
    const text = readAtlasReport(root, (req.params as { name: string }).name);
    if (text === null) return reply.code(404).send({ success: false, error: { code: 'NOT_FOUND', msg: 'No such report yet: run the tests, then npm run machines:report / npm run e2e:report' } });
    return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(text);
  });
}
