/**
 * One browser context per Playwright worker, lent to one test at a time (opted into by a spec
 * through `sharedContextTest` in fixtures.ts; payments.spec.ts, the engine's paths, does). A new
 * context per test starts with an empty HTTP cache, so each test's first page load fetched the
 * app's scripts from the shop again (docs/testing.md, "Time"); the lent context keeps its HTTP
 * cache (the hashed /assets are immutable) and nothing else:
 *
 * - each test gets pages of its own: the previous test's pages (its popups too) are closed when it
 *   ends, and with them their routes, init scripts, bindings, viewport and sessionStorage;
 * - before the next test, its page is opened on about:blank, and the storage of every origin the
 *   context's frames visited (localStorage, IndexedDB, service workers, Cache Storage, file
 *   systems) and all cookies are cleared; then the cookies and every visited origin's
 *   localStorage are checked empty, or the test fails before it starts;
 * - what a test adds to the context itself is taken back: its init scripts and bindings
 *   (`addInitScript`, `exposeBinding`, `exposeFunction`: disposed) and routes (`unrouteAll`);
 *   whatever cannot be taken back (the clock installed or moved, offline, permissions,
 *   geolocation, extra headers, credentials) makes the context the test's alone: it is closed
 *   when the test ends and the next test gets a new one, as it does after a test that did not pass;
 * - the machine trace's binding and init script are installed once, and the binding delivers into
 *   the current test's MachineTrace (never a record of a page from an earlier test).
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from '@playwright/test';
import { INSPECT_INIT_SCRIPT, type MachineTrace, type TraceRecord } from './trace';

/** The storage kinds cleared per origin (CDP Storage.clearDataForOrigin); never the HTTP cache. */
const STORAGE_TYPES = 'cookies,local_storage,indexeddb,service_workers,cache_storage,file_systems,websql,shared_storage,storage_buckets';

/** What a test may do to the context that the lease takes back (disposed) or cannot (taints). */
const DISPOSED = ['addInitScript', 'exposeBinding', 'exposeFunction'] as const;
const ROUTED = ['route', 'routeWebSocket', 'routeFromHAR'] as const;
const TAINTING = ['setOffline', 'setGeolocation', 'grantPermissions', 'setExtraHTTPHeaders', 'setHTTPCredentials'] as const;
const CLOCK = ['install', 'fastForward', 'pauseAt', 'resume', 'runFor', 'setFixedTime', 'setSystemTime'] as const;

interface Lease {
  trace?: MachineTrace;
  pages: Set<Page>;
  disposables: { dispose(): Promise<void> }[];
  routed: boolean;
  /** Why the context cannot be lent again (empty: it can). */
  tainted: string[];
  restore: (() => void)[];
}

export class WorkerContext {
  private context?: BrowserContext;
  private lease?: Lease;
  /** Pages of earlier tests: a late record of theirs is not the current test's. */
  private readonly retired = new WeakSet<Page>();
  /** Origins the context's frames have been at (their storage is cleared before the next test). */
  private readonly origins = new Set<string>();
  /** How many contexts were opened, and how many tests each served (printed at the end). */
  readonly served: number[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly options: BrowserContextOptions,
  ) {}

  private async open(): Promise<BrowserContext> {
    const context = await this.browser.newContext(this.options);
    this.origins.clear();
    await context.exposeBinding('__e2eRecord', (source, records: TraceRecord[]) => {
      if (source.page && this.retired.has(source.page)) return;
      this.lease?.trace?.add(records);
    });
    await context.addInitScript(INSPECT_INIT_SCRIPT);
    const watch = (page: Page) => {
      this.lease?.pages.add(page);
      page.on('framenavigated', (frame) => {
        const url = frame.url();
        if (/^https?:/.test(url)) this.origins.add(new URL(url).origin);
      });
    };
    context.on('page', watch);
    context.on('close', () => {
      if (this.context === context) this.context = undefined;
    });
    this.served.push(0);
    return context;
  }

  /** The machine trace the binding delivers into while the context is lent. */
  deliverTo(trace: MachineTrace): void {
    if (!this.lease) throw new Error('the worker context is not lent');
    this.lease.trace = trace;
  }

  /** The context for one test and its first page, cleared and checked. */
  async lend(): Promise<{ context: BrowserContext; page: Page }> {
    if (this.lease) throw new Error('the worker context is already lent to a test');
    const context = (this.context ??= await this.open());
    if (this.origins.size) {
      try {
        await this.clear(context);
      } catch (err) {
        this.context = undefined;
        await context.close();
        throw err;
      }
    }
    const lease: Lease = { pages: new Set(), disposables: [], routed: false, tainted: [], restore: [] };
    this.lease = lease;
    const page = await context.newPage();
    this.watchChanges(context, lease);
    this.served[this.served.length - 1]! += 1;
    return { context, page };
  }

  /**
   * Clears the storage of every origin visited and all cookies, then checks it: a page (closed
   * after) at each origin, served an empty document by a route, must find no localStorage,
   * sessionStorage, IndexedDB database, Cache Storage or service worker, and the context no cookie.
   * A test must never see another test's session: checked, not assumed.
   */
  private async clear(context: BrowserContext): Promise<void> {
    const probe = await context.newPage();
    try {
      const cdp = await context.newCDPSession(probe);
      for (const origin of this.origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: STORAGE_TYPES });
      await cdp.detach();
      await context.clearCookies();
      const cookies = await context.cookies();
      if (cookies.length) throw new Error(`the shared context still has cookies: ${cookies.map((c) => `${c.name} (${c.domain})`).join(', ')}`);
      await probe.route('**/*', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>probe</title>' }));
      for (const origin of this.origins) {
        await probe.goto(`${origin}/__e2e_storage_probe`);
        const left = await probe.evaluate(async () => {
          const found: string[] = [];
          for (let i = 0; i < localStorage.length; i++) found.push(`localStorage ${localStorage.key(i)}`);
          for (let i = 0; i < sessionStorage.length; i++) found.push(`sessionStorage ${sessionStorage.key(i)}`);
          for (const db of await indexedDB.databases()) found.push(`IndexedDB ${db.name}`);
          if ('caches' in self) for (const name of await caches.keys()) found.push(`Cache Storage ${name}`);
          if (navigator.serviceWorker) for (const r of await navigator.serviceWorker.getRegistrations()) found.push(`service worker ${r.scope}`);
          return found;
        });
        if (left.length) throw new Error(`the shared context's storage of ${origin} is not empty: ${left.join(', ')}`);
      }
    } finally {
      await probe.close();
    }
  }

  /** The context back after the test: its pages closed, what it added taken back, or the context closed. */
  async giveBack(passed: boolean): Promise<void> {
    const lease = this.lease;
    const context = this.context;
    this.lease = undefined;
    if (!lease) return;
    for (const undo of lease.restore.reverse()) undo();
    if (!context) return;
    for (const page of [...lease.pages, ...context.pages()]) this.retired.add(page);
    if (!passed) lease.tainted.push('the test did not pass');
    if (lease.tainted.length) {
      this.context = undefined;
      await context.close({ reason: `not lent again: ${lease.tainted.join('; ')}` });
      return;
    }
    for (const page of context.pages()) await page.close();
    for (const d of lease.disposables.reverse()) await d.dispose();
    if (lease.routed) await context.unrouteAll({ behavior: 'ignoreErrors' });
  }

  async close(): Promise<void> {
    await this.context?.close();
    this.context = undefined;
  }

  /** Wraps the context's methods for this lease: what the test adds is recorded (to take back) or taints. */
  private watchChanges(context: BrowserContext, lease: Lease): void {
    const patch = (target: object, name: string, wrap: (orig: (...args: unknown[]) => Promise<unknown>) => (...args: unknown[]) => Promise<unknown>) => {
      const t = target as Record<string, unknown>;
      const orig = (t[name] as (...args: unknown[]) => Promise<unknown>).bind(target);
      t[name] = wrap(orig);
      lease.restore.push(() => delete t[name]);
    };
    for (const name of DISPOSED)
      patch(context, name, (orig) => async (...args) => {
        const d = (await orig(...args)) as { dispose(): Promise<void> };
        lease.disposables.push(d);
        return d;
      });
    for (const name of ROUTED)
      patch(context, name, (orig) => (...args) => {
        lease.routed = true;
        return orig(...args);
      });
    for (const name of TAINTING)
      patch(context, name, (orig) => (...args) => {
        lease.tainted.push(`context.${name}`);
        return orig(...args);
      });
    // page.clock is the context's clock: an installed clock stays in the context's pages to come
    for (const name of CLOCK)
      patch(context.clock, name, (orig) => (...args) => {
        lease.tainted.push(`clock.${name}`);
        return orig(...args);
      });
  }
}
