/**
 * Executes a browser path through the page. The page map says, for each machine state, what the
 * page must show, and for each event label, the user action that sends it (`act`) or what must be
 * set up before the step that leads to it (`arm`: a sandbox outcome chosen, a network failure
 * routed). A state or an event the map does not know fails the path: a new state cannot go
 * untested. After every step the machine's recorded states in the browser (trace) must reach the
 * path's state, in order, by the step's own transition: the macrostep that brought the machine to
 * the step's state must have handled the step's event and taken the transitions the path plans
 * for it (cover.ts replays the path against the real machine; both sides keyed by
 * scripts/transition-key.ts), or the path fails naming what was planned and what was taken. At
 * the end the database must hold exactly what the final state implies.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import type { Shop } from './fixtures';
import type { Locale } from '../../../src/i18n/locale';
import { labelOf, type BrowserModel, type BrowserPath, type BrowserStep } from './paths';
import type { Macrostep, MachineTrace } from './trace';
import { plannedSteps } from './cover';
import { DB_POLL, SERVER_ANSWER, traceHolds, waitFor } from './waits';

export interface PathContext {
  page: Page;
  request: APIRequestContext;
  shop: Shop;
  trace: MachineTrace;
  user: { id: number; username: string; email: string };
  /** The buyer's language on this path (lang.ts: Thai and English alternate). */
  lang: Locale;
  /** Course page the purchase starts from. */
  coursePath: string;
  /** The order this path made (read from the database once created). */
  orderId?: number;
  /** The labels of the path being run (set by runPath). */
  labels?: string[];
  /** The path being run (set by runPath): an action may look at what comes next. */
  path?: BrowserPath;
  /** What armed outcomes chose, read by the actions (e.g. hosted: 'pay' | 'decline' | 'back'). */
  plan: Record<string, string>;
}

export type StateCheck = 'passing' | ((ctx: PathContext, step: BrowserStep, index: number, path: BrowserPath) => Promise<void>);

export interface EventMapEntry {
  /** Done before the user action that precedes this event (or before the purchase starts). */
  arm?: (ctx: PathContext) => Promise<void>;
  /** The user action (user events), or what waits for it (server answers, timers). */
  act?: (ctx: PathContext, step: BrowserStep) => Promise<void>;
}

export interface PageMap {
  /** Machine id (the browser trace is keyed by it). */
  id: string;
  /**
   * A second map of the same machine started another way (the card-payment return page) or in
   * another shop (no thank-you page): named in the tests' titles; the report adds up its cover
   * with the machine's other maps.
   */
  variant?: string;
  /** The payment method the path pays with (none for a flow over every method, e.g. pay again). */
  methodId?: number;
  model: BrowserModel;
  /** From a logged-in buyer to the payment machine started (choose the method, submit). */
  start: (ctx: PathContext) => Promise<void>;
  /** By state node id (`paySolutions.awaitingReturn`); the deepest active node's entry is used. */
  states: Record<string, StateCheck>;
  events: Record<string, EventMapEntry>;
  /** The database after the path, by final state value (`"paid"`; the `rest` state of a machine that never finishes). */
  db: Record<string, (ctx: PathContext) => Promise<void>>;
}

/** The map's name in the tests' titles (payments.spec.ts) and its key in the plan's file (paths.ts enginePaths). */
export function mapTitle(map: PageMap): string {
  return `${map.methodId ? `method ${map.methodId} ${map.id}` : map.id}${map.variant ? ` (${map.variant})` : ''}`;
}

function stateKey(map: PageMap, step: BrowserStep): string {
  const nodes = (step.state as unknown as { _nodes: { id: string; type: string }[] })._nodes.filter((n) => n.type === 'atomic' || n.type === 'final');
  return nodes.map((n) => n.id).sort().join('+') || map.id;
}

/** What the map cannot execute on this path (empty when it can execute all of it). */
export function unmapped(map: PageMap, path: BrowserPath): string[] {
  const missing: string[] = [];
  for (const [i, step] of path.steps.entries()) {
    const key = stateKey(map, step);
    if (!(key in map.states)) missing.push(`state ${key}`);
    if (i > 0 && !(step.label in map.events)) missing.push(`event ${step.label}`);
    if (i === path.steps.length - 1 && step.final && !(step.value in map.db)) missing.push(`database check for ${step.value}`);
  }
  return [...new Set(missing)];
}

export async function runPath(ctx: PathContext, map: PageMap, path: BrowserPath): Promise<void> {
  const missing = unmapped(map, path);
  if (missing.length) throw new Error(`The page map cannot execute this ${map.id} path: no ${missing.join(', no ')}.\nPath: ${path.title}`);
  const isUser = (label: string) => map.model.userEvents.some((e) => labelOf(e) === label);
  // Arms run before each point where the test acts or waits: a user event, a timer of the machine
  // (and a callback actor's event, which the test brings about: a payment pushed from the bank app).
  const actsHere = (label: string) => isUser(label) || label.startsWith('⏱') || label.startsWith('⇠');
  ctx.labels = path.steps.map((s) => s.label);
  ctx.path = path;
  const armFrom = async (i: number) => {
    for (let j = i; j < path.steps.length && !actsHere(path.steps[j]!.label); j++) await map.events[path.steps[j]!.label]!.arm?.(ctx);
  };

  const planned = plannedSteps(map.model, path);
  /** The trace's index after the record where the previous step was reached. */
  let cursor = 0;
  const reachStart = async (step: BrowserStep) => {
    const limit = waitFor(step.label);
    const reached = await traceHolds(() => {
      const at = ctx.trace.records.findIndex((r, k) => k >= cursor && r.m === map.id && r.v === step.value);
      if (at >= 0) cursor = at + 1;
      return at >= 0;
    }, limit.ms);
    if (!reached) throw new Error(`${map.id} did not reach ${step.value} (waited up to ${limit.ms} ms for ${limit.why}); recorded: ${ctx.trace.values(map.id).join(' → ')}`);
  };
  const describe = (ms: Macrostep) => `${ms.event} [${ms.keys.join(', ')}] ⇒ ${ms.value}`;
  /**
   * Step i's own transition: the first event of the step's type the machine handled since the
   * previous step must have taken the planned transitions (same keys, same order), and the
   * machine must then be in the step's state (at once, or once a parallel region that moved
   * meanwhile on its own timer is back: the QR's poll). Another event handled meanwhile is the
   * machine's own (a poll's tick and read, an ignored event) unless it ends the machine: then the
   * planned transition can no longer come. Answers the record index where the state is reached,
   * a mismatch, or nothing yet.
   */
  const judge = (step: BrowserStep, i: number): { at: number } | { mismatch: string } | undefined => {
    const plan = planned[i]!;
    for (const ms of ctx.trace.macrosteps(map.id)) {
      if (ms.at < cursor) continue;
      if (ms.event === plan.event) {
        if (ms.keys.join('\n') !== plan.keys.join('\n')) return { mismatch: describe(ms) };
        const at = ctx.trace.records.findIndex((r, k) => k >= ms.at && r.m === map.id && r.v === step.value);
        return at >= 0 ? { at } : undefined;
      }
      if (ms.status !== 'active') return { mismatch: `${describe(ms)} (the machine ended without the planned transition)` };
    }
    return undefined;
  };
  const reach = async (step: BrowserStep, i: number) => {
    // how long this can take depends on what brings the state about (waits.ts says why)
    const limit = waitFor(step.label);
    const plan = planned[i]!;
    const planText = () =>
      `planned: ${plan.event} [${plan.keys.join(', ')}] from ${path.steps[i - 1]!.value} to ${step.value}\n` +
      `taken since the previous step: ${
        ctx.trace
          .macrosteps(map.id)
          .filter((ms) => ms.at >= cursor)
          .map(describe)
          .join(' → ') || 'nothing'
      }\nPath: ${path.title}`;
    let verdict: ReturnType<typeof judge>;
    if (!(await traceHolds(() => (verdict = judge(step, i)) !== undefined, limit.ms))) {
      throw new Error(`${map.id} did not take step ${i} (${step.label}) within ${limit.ms} ms (waited for ${limit.why}).\n${planText()}\nrecorded states: ${ctx.trace.values(map.id).join(' → ')}`);
    }
    if ('mismatch' in verdict!) throw new Error(`${map.id} step ${i} (${step.label}): the transition taken is not the planned one.\ntaken:   ${verdict.mismatch}\n${planText()}`);
    cursor = verdict!.at + 1;
  };
  const check = async (step: BrowserStep, i: number) => {
    await (i === 0 ? reachStart(step) : reach(step, i));
    const c = map.states[stateKey(map, step)]!;
    if (c !== 'passing') await c(ctx, step, i, path);
  };

  // Each step is a test.step: the report's steps say where a path's time went (docs/testing.md, "Time").
  await test.step('start', async () => {
    await armFrom(1);
    await map.start(ctx);
    await check(path.steps[0]!, 0);
  });
  for (let i = 1; i < path.steps.length; i++) {
    const step = path.steps[i]!;
    await test.step(`${i} ${step.label}`, async () => {
      if (actsHere(step.label)) {
        await armFrom(i + 1);
        // The test brings this step about now: a transition of the machine's own while the arms
        // ran (the poll's tick and read, back where it was) is not this step's, whose outcome the
        // arms have only now set up.
        if (ctx.trace.macrosteps(map.id).at(-1)?.value === path.steps[i - 1]!.value) cursor = Math.max(cursor, ctx.trace.records.length);
      }
      await map.events[step.label]!.act?.(ctx, step);
      await check(step, i);
    });
  }
  const last = path.steps.at(-1)!;
  if (last.final) await test.step('database', () => map.db[last.value]!(ctx));
}

/** The order the buyer made on this path (the newest of the user), waited for. */
export async function orderOf(ctx: PathContext): Promise<number> {
  if (ctx.orderId) return ctx.orderId;
  // the order is made by the checkout's server call
  await expect.poll(async () => (await ctx.shop.db.query('SELECT id FROM orders WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [ctx.user.id])).rows.length, { timeout: SERVER_ANSWER.ms, intervals: DB_POLL }).toBe(1);
  const r = await ctx.shop.db.query<{ id: number }>('SELECT id FROM orders WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [ctx.user.id]);
  ctx.orderId = r.rows[0]!.id;
  return ctx.orderId;
}
