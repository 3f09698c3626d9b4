#!/usr/bin/env node
// `npm run build:server`: the server as plain JavaScript in build/ (the production image's code).
//  1. tsc -p tsconfig.server.json: server/, domain/, generated/ and scripts/admin.ts → build/ (same layout)
//  2. relative imports get their file extension (the sources import extensionless, as bundlers do;
//     Node's ESM loader needs './x.js' or './x/index.js')
//  3. the files the server reads next to its code: openapi.yaml, server/db/migrations/*.sql,
//     server/db/demo-assets/**
// Then `node build/server/main.js` is the server (build/ stands where the repository root stands:
// its .data, outbox, uploads and dist default to build/…; the image copies build/ to /app).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);
const out = join(root, 'build');
rmSync(out, { recursive: true, force: true });

const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.server.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

/** Every file under dir (relative paths). */
function files(dir) {
  return readdirSync(dir, { recursive: true }).map(String).filter((f) => statSync(join(dir, f)).isFile());
}

let rewritten = 0;
const spec = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\2/g;
for (const f of files(out).filter((x) => x.endsWith('.js'))) {
  const path = join(out, f);
  const src = readFileSync(path, 'utf8');
  const next = src.replace(spec, (whole, lead, q, rel) => {
    if (/\.(m?js|json)$/.test(rel)) return whole;
    const target = resolve(dirname(path), rel);
    if (existsSync(`${target}.js`)) return `${lead}${q}${rel}.js${q}`;
    if (existsSync(join(target, 'index.js'))) return `${lead}${q}${rel}/index.js${q}`;
    throw new Error(`${f}: cannot resolve ${rel}`);
  });
  if (next !== src) {
    writeFileSync(path, next);
    rewritten++;
  }
}

cpSync('openapi.yaml', join(out, 'openapi.yaml'));
for (const dir of ['server/db/migrations', 'server/db/demo-assets']) cpSync(dir, join(out, dir), { recursive: true });
console.log(`[build:server] build/: ${files(out).filter((x) => x.endsWith('.js')).length} JavaScript files (${rewritten} with rewritten imports), openapi.yaml, migrations, demo assets. Run: node build/server/main.js`);
