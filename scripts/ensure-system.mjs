#!/usr/bin/env node
// Installs the system packages the tests need, from Debian's packages, when they are missing:
// PostgreSQL 15 (real-database contract and concurrency tests), Chromium (end-to-end and
// Lighthouse), haproxy (the two-process scale test, tests/scale) and poppler-utils (pdftotext and
// pdfdetach read the documents' PDFs back, tests/server/documents.test.ts). Idempotent; prints what it did.
// Usage: node scripts/ensure-system.mjs [postgres] [chromium] [haproxy] [poppler]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const wanted = process.argv.slice(2);
const all = wanted.length === 0;

export function findPgBin() {
  for (const v of ['17', '16', '15']) {
    const dir = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(`${dir}/initdb`) && existsSync(`${dir}/pg_ctl`)) return dir;
  }
  return null;
}

let updated = false;
function aptInstall(pkgs) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = root ? [] : ['sudo', '-n'];
  if (!updated) {
    console.log('[ensure-system] apt-get update');
    run([...sudo, 'apt-get', 'update', '-qq']);
    updated = true;
  }
  console.log(`[ensure-system] apt-get install ${pkgs.join(' ')}`);
  run([...sudo, 'apt-get', 'install', '-y', '-qq', ...pkgs], { DEBIAN_FRONTEND: 'noninteractive' });
}

function run(cmd, env = {}) {
  const [bin, ...args] = cmd;
  const r = spawnSync(bin, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} exited ${r.status}`);
}

if (all || wanted.includes('postgres')) {
  if (findPgBin()) console.log(`[ensure-system] PostgreSQL: ${findPgBin()}`);
  else {
    aptInstall(['postgresql']);
    if (!findPgBin()) throw new Error('PostgreSQL did not install');
  }
}
export const HAPROXY = '/usr/sbin/haproxy';

if (all || wanted.includes('haproxy')) {
  if (existsSync(HAPROXY)) console.log(`[ensure-system] ${execFileSync(HAPROXY, ['-v']).toString().split('\n')[0]}`);
  else {
    aptInstall(['haproxy']);
    if (!existsSync(HAPROXY)) throw new Error('haproxy did not install');
  }
}
// The full browser (Lighthouse, bench/) and its headless shell (the end-to-end tests, playwright.config.ts).
const CHROMIUM = { '/usr/bin/chromium': 'chromium', '/usr/bin/chromium-headless-shell': 'chromium-headless-shell', '/usr/share/fonts/truetype/tlwg': 'fonts-thai-tlwg' };
if (all || wanted.includes('chromium')) {
  const missing = Object.entries(CHROMIUM).filter(([path]) => !existsSync(path));
  if (missing.length) aptInstall(missing.map(([, pkg]) => pkg));
  for (const bin of ['/usr/bin/chromium', '/usr/bin/chromium-headless-shell']) {
    if (!existsSync(bin)) throw new Error(`${bin} did not install`);
    console.log(`[ensure-system] ${bin}: ${execFileSync(bin, ['--version']).toString().trim()}`);
  }
}
export const PDFTOTEXT = '/usr/bin/pdftotext';

if (all || wanted.includes('poppler')) {
  if (existsSync(PDFTOTEXT) && existsSync('/usr/bin/pdfdetach')) console.log(`[ensure-system] poppler-utils: ${PDFTOTEXT}`);
  else {
    aptInstall(['poppler-utils']);
    if (!existsSync(PDFTOTEXT)) throw new Error('poppler-utils did not install');
  }
}
