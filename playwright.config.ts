/**
 * End-to-end tests in Debian's Chromium, its headless shell (/usr/bin/chromium-headless-shell, the
 * `chromium-headless-shell` package built from the same Chromium source as /usr/bin/chromium, the
 * browser Playwright itself runs headless tests in; never a downloaded browser). The full browser's
 * new headless mode builds its window's omnibox popup (a WebUI renderer) for every browser context,
 * and with trace screenshots on it composited a screencast all the time: measured over the same six
 * payment paths, 127 s of CPU with the full browser and screenshots, 69 s with no trace, 63 s with
 * the headless shell and the trace below (docs/testing.md, "Time"). Lighthouse (bench/) keeps the
 * full browser: it measures what a buyer's Chromium does. Each
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
  // Three workers on a 2-core machine: with two, the cores stood idle 12-15% of the run (a test
  // waiting on a timer, a poll, socket.io's back-off, a worker's shop starting); with three, 97%
  // busy and the whole suite 457 s against 507 s on the AMD EPYC machine (docs/testing.md, "Time").
  workers: 3,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  forbidOnly: true,
  reporter: process.env.CI ? [['list'], ['json']] : [['list']],
  use: {
    locale: 'th-TH',
    timezoneId: 'Asia/Bangkok',
    viewport: { width: 1280, height: 900 },
    // Reduced motion: the app's spinners and page-load bar stand still (docs/decisions/0039). Spinning,
    // each drew a frame every 16 ms while a payment waited: over the 95 engine paths, 262 CPU s
    // against 287-321 (the compositor's share 13 s against 23-25). motion.spec.ts checks both preferences.
    reducedMotion: 'reduce',
    // The trace of a failed test keeps its actions, network, console and sources, not DOM snapshots
    // nor a screencast: both are recorded on every action of every test, passing or not. Over 23
    // engine paths (2 workers, quiet, alternating) the snapshots cost 103-110 CPU s against 93-96
    // without, wall 65-71 s against 63; the screencast cost more than the test itself. A failure
    // also saves its screenshot and the page's accessibility snapshot (error-context.md).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: true },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium-headless-shell',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
