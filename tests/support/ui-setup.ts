/**
 * Setup of the 'ui' vitest project (jsdom). No jest-dom matchers are installed: tests use plain
 * expect on DOM properties. Network is closed: any fetch, XMLHttpRequest or WebSocket a test did
 * not script fails that test (views get their data from machines with scripted actors).
 */
import { afterEach, beforeEach } from 'vitest';
import { cleanup } from '@testing-library/react';

const unhandled: string[] = [];

function refuse(what: string): never {
  unhandled.push(what);
  throw new Error(`Unhandled network request in a UI test: ${what}`);
}

beforeEach(() => {
  unhandled.length = 0;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return refuse(`${init?.method ?? 'GET'} ${url}`);
  }) as typeof fetch;
  globalThis.XMLHttpRequest = class {
    open(method: string, url: string) {
      refuse(`XHR ${method} ${url}`);
    }
  } as unknown as typeof XMLHttpRequest;
  globalThis.WebSocket = class {
    constructor(url: string) {
      refuse(`WebSocket ${url}`);
    }
  } as unknown as typeof WebSocket;
  if (typeof URL.createObjectURL !== 'function') {
    URL.createObjectURL = () => 'blob:test';
    URL.revokeObjectURL = () => {};
  }
  if (typeof window !== 'undefined' && typeof window.scrollTo !== 'function') window.scrollTo = () => {};
  if (typeof Element !== 'undefined' && typeof Element.prototype.scrollIntoView !== 'function') Element.prototype.scrollIntoView = () => {};
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  document.body.className = '';
  if (unhandled.length > 0) {
    const list = unhandled.splice(0).join('\n  ');
    throw new Error(`The test made network requests it did not script:\n  ${list}`);
  }
});
