/**
 * Setup of the 'ui' vitest project (jsdom). No jest-dom matchers are installed: tests use plain
 * expect on DOM properties. Network is closed: any fetch, XMLHttpRequest or WebSocket a test did
 * not script fails that test (views get their data from machines with scripted actors; the few
 * actor tests script answers with scriptFetch from ./ui-fetch).
 */
import { afterEach, beforeEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { closedFetch, resetFetch, unhandledRequests } from './ui-fetch';
import { EN, MESSAGES_EN } from '../../src/i18n/en';
import { registerEnglish, setLocale } from '../../src/i18n/messages';

// The app loads its English tables on demand (src/main.tsx, the language switch); views under test
// switch with setLocale directly, so it is there from the start.
registerEnglish(EN, MESSAGES_EN);

// findBy*/waitFor wait up to 15 s (1 s default): a loaded CI machine renders slower, never wrongly
// (a wait ends as soon as its element is there; only a failing test waits the whole time).
configure({ asyncUtilTimeout: 15_000 });

// Installed at load time, before any app module creates its client with globalThis.fetch.
globalThis.fetch = closedFetch as typeof fetch;
// Node's Request refuses relative URLs; the browser resolves them against the page: do the same.
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' && input.startsWith('/') ? new URL(input, window.location.href).href : input, init);
  }
} as typeof Request;
globalThis.XMLHttpRequest = class {
  open(method: string, url: string) {
    unhandledRequests.push(`XHR ${method} ${url}`);
    throw new Error(`Unhandled network request in a UI test: XHR ${method} ${url}`);
  }
} as unknown as typeof XMLHttpRequest;
globalThis.WebSocket = class {
  constructor(url: string) {
    unhandledRequests.push(`WebSocket ${url}`);
    throw new Error(`Unhandled network request in a UI test: WebSocket ${url}`);
  }
} as unknown as typeof WebSocket;
if (typeof URL.createObjectURL !== 'function') {
  URL.createObjectURL = () => 'blob:test';
  URL.revokeObjectURL = () => {};
}
if (typeof window !== 'undefined') window.scrollTo = () => {};
if (typeof Element !== 'undefined' && typeof Element.prototype.scrollIntoView !== 'function') Element.prototype.scrollIntoView = () => {};

beforeEach(() => {
  unhandledRequests.length = 0;
  resetFetch();
});

// The ui project shares one module graph and one jsdom per worker across its files (isolate: false,
// vite.config.ts): what a test changes in the page or in a module's state is set back here.
afterEach(() => {
  cleanup();
  setLocale('th');
  localStorage.clear();
  sessionStorage.clear();
  document.body.className = '';
  if (unhandledRequests.length > 0) {
    const list = unhandledRequests.splice(0).join('\n  ');
    throw new Error(`The test made network requests it did not script:\n  ${list}`);
  }
});
