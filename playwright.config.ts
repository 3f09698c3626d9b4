/**
 * End-to-end tests in Debian's Chromium (/usr/bin/chromium; never a downloaded browser). The
 * web server is the real app + reference API (`node scripts/start.mjs`, building dist/ when
 * stale) on an in-memory PGlite, seeded with the demo shop at every run; mail and uploads go to
 * throwaway folders. Payments run against the server's loopback sandboxes (/sandbox/*).
 */
import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PORT = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${PORT}`;
const scratch = mkdtempSync(join(tmpdir(), 'course-e2e-'));

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: /.*\.spec\.ts$/,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  reporter: process.env.CI ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    locale: 'th-TH',
    timezoneId: 'Asia/Bangkok',
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'node scripts/start.mjs',
    url: `${baseURL}/public/courses`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PGLITE_DIR: 'memory',
      OUTBOX_DIR: join(scratch, 'outbox'),
      UPLOADS_DIR: join(scratch, 'uploads'),
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '0',
    },
  },
});
