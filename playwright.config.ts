/**
 * End-to-end tests in Debian's Chromium (/usr/bin/chromium; never a downloaded browser). Each
 * worker runs its own shop (tests/e2e/engine/fixtures.ts): the real app + reference API
 * (`node scripts/start.mjs`) on its own database, a copy of the demo shop the global setup made
 * once in the run's throwaway PostgreSQL, on port E2E_PORT (5201) + worker index; mail and
 * uploads go to throwaway folders. Payments run against the server's loopback sandboxes
 * (/sandbox/*). dist/ is built once first (global setup).
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: /.*\.spec\.ts$/,
  globalSetup: './tests/e2e/engine/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  forbidOnly: true,
  reporter: process.env.CI ? [['list'], ['json']] : [['list']],
  use: {
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
});
