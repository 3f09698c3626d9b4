/**
 * How long the engine waits for a machine to reach a state, and why it can take that long. No
 * wait is a fixed pause: each is a poll that ends as soon as the state is recorded; the limit only
 * bounds a failure. The limits are set for a loaded machine (CI's 2 cores shared with the build,
 * PostgreSQL and other browsers: at load 15-30 a page load or one API call took seconds here).
 * `E2E_WAIT_SCALE` (default 1) multiplies them all for a slower machine still.
 */
const SCALE = Number(process.env.E2E_WAIT_SCALE ?? 1) || 1;

export interface Wait {
  ms: number;
  /** Why reaching the state can take this long. */
  why: string;
}

const wait = (ms: number, why: string): Wait => ({ ms: Math.round(ms * SCALE), why });

/** A page load (the start, a reload, a return from the provider): the built app's scripts parse and restore the flow before the first state is recorded. */
export const PAGE_LOAD = wait(45_000, 'a page load: the app bundle is parsed and the saved flow restored before the machine records a state');

/** A server answer: the API call through Fastify, PostgreSQL and, for a provider call, the loopback sandbox over HTTP. */
export const SERVER_ANSWER = wait(45_000, 'a server answer: the API, PostgreSQL and (for a provider call) the loopback sandbox, each slowed on a loaded machine');

/** A push: the sandbox's callback to the server, the order applied, then the socket's message to the page. */
export const PUSH = wait(45_000, "a push: the sandbox calls the server back, the order is applied, and the realtime message reaches the page");

/** A machine timer (a poll's interval, a redirect's delay) and the server answer that follows it. */
export const TIMER = wait(60_000, "a timer of the machine (e.g. the 6 s poll) and the server answer it starts");

/** A user action: the page's reaction is immediate, but the action itself waits for the element to be ready. */
export const USER_ACTION = wait(30_000, 'a user action: the element is waited for, then the machine reacts at once');

/** The realtime connection lost: socket.io-client's attempts fail in a row (its back-off: 1.5-4.5 s quiet) before the watch gives up. */
export const PUSHES_LOST = wait(45_000, "socket.io-client's connection attempts failing in a row (its own back-off between them, seconds), then the watch giving up");

/** The wait for the state a step with this label leads to (labels as in paths.ts). */
export function waitFor(label: string): Wait {
  if (label === 'start' || label === 'payment.resume') return PAGE_LOAD;
  if (label.startsWith('✗watchOrderStatus:')) return PUSHES_LOST;
  if (label.startsWith('✓') || label.startsWith('✗')) return SERVER_ANSWER;
  if (label.startsWith('⇠')) return PUSH;
  if (label.startsWith('⏱')) return TIMER;
  return USER_ACTION;
}

/**
 * How often a wait looks again. The trace is in this process (an array the page's binding fills):
 * looking costs nothing, so it is looked at every 25 ms, and a step goes on as soon as its state
 * is recorded. expect.poll's default (100, 250, 500, then every 1000 ms) let each step wait up to
 * a second after its state was there.
 */
export const TRACE_POLL = [10, 25];

/**
 * Waits until `holds()` (a look at the in-process trace) is true, looking every 25 ms; false when
 * `ms` passed first. A plain timer, not expect.poll: each of expect.poll's looks is an assertion
 * step of its own, reported to the runner and recorded in the trace (40 a second per waiting test).
 */
export async function traceHolds(holds: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (holds()) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, TRACE_POLL[1]));
  }
}

/** A database read (a query on the worker's pool): every 100 ms after a quick first look. */
export const DB_POLL = [50, 100];
