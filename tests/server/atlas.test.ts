// The flow atlas is served by the demo shop only (server/web/atlas.ts): its page, its bundle, the
// live switch the built app's ?inspect modes ask, the tests' reports; a production server has none
// of them (its /__atlas/live is the app's page, which src/inspect does not take for a yes).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './support/app';
import { atlasPlugin } from '../../server/web/atlas';

const dist = mkdtempSync(join(tmpdir(), 'dist-atlas-'));
const root = mkdtempSync(join(tmpdir(), 'root-atlas-'));
const out = join(root, 'built');

beforeAll(() => {
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><title>shop</title></head><body><div id="root"></div></body></html>');
  // a built atlas newer than its (absent) sources: served as it is, no build
  mkdirSync(join(out, 'src', 'atlas'), { recursive: true });
  mkdirSync(join(out, 'assets'), { recursive: true });
  writeFileSync(join(out, 'src', 'atlas', 'index.html'), '<!doctype html><title>Flow atlas</title><script type="module" src="/__atlas/assets/atlas-1.js"></script>');
  writeFileSync(join(out, 'assets', 'atlas-1.js'), 'console.log(1)');
  mkdirSync(join(root, '.test-reports'));
  writeFileSync(join(root, '.test-reports', 'machines-report.json'), '{"machines":{}}');
  writeFileSync(join(root, 'secret.json'), '{}');
});
afterAll(() => {
  rmSync(dist, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

describe('the atlas plugin', () => {
  const app = Fastify();
  beforeAll(async () => {
    await atlasPlugin(app, { root, outDir: out });
    await app.ready();
  });
  afterAll(() => app.close());

  it('serves the page, its bundle, the live switch and the reports', async () => {
    const page = await app.inject('/__atlas/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Flow atlas');
    expect((await app.inject('/__atlas')).headers.location).toBe('/__atlas/');
    const js = await app.inject('/__atlas/assets/atlas-1.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('javascript');
    const live = await app.inject('/__atlas/live');
    expect(live.json()).toEqual({ success: true, data: { inspect: true } });
    expect((await app.inject('/__atlas/reports/machines.json')).json()).toEqual({ machines: {} });
    expect((await app.inject('/__atlas/reports/e2e.json')).statusCode).toBe(404);
  });

  it('serves nothing else from the disk', async () => {
    expect((await app.inject('/__atlas/reports/secret.json')).statusCode).toBe(404);
    expect((await app.inject('/__atlas/reports/..%2Fsecret.json')).statusCode).toBe(404);
    expect((await app.inject('/__atlas/assets/..%2F..%2Fsecret.json')).statusCode).toBe(404);
  });
});

describe('which shop serves it', () => {
  let demo: TestApp;
  let production: TestApp;
  beforeAll(async () => {
    demo = await testApp({ seedData: false, config: { distDir: dist, serveApp: true, demo: true } });
    production = await testApp({ seedData: false, config: { distDir: dist, serveApp: true, demo: false } });
  }, 180_000);
  afterAll(async () => {
    await demo?.close();
    await production?.close();
  });

  it('the demo shop answers the live switch', async () => {
    const r = await demo.app.inject('/__atlas/live');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ success: true, data: { inspect: true } });
  });

  it('a production shop has no atlas: its /__atlas/ paths are the app page, never the switch or a report', async () => {
    for (const url of ['/__atlas/', '/__atlas/live', '/__atlas/reports/machines.json']) {
      const r = await production.app.inject(url);
      expect(r.headers['content-type'], url).not.toContain('application/json');
      expect(r.body, url).not.toContain('Flow atlas');
      expect(r.body, url).not.toContain('"inspect":true');
    }
  });
});
