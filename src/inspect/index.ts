/**
 * The Stately inspector and the flow atlas, for developers. Pass the result as `inspect` to every
 * createActor / useActorRef (root actors; their children are inspected with them):
 *
 *   const inspect = createInspect();
 *   const checkout = createActor(logic, { input, inspect });
 *
 * - `?inspect` in the URL or VITE_INSPECT=1: the browser inspector (createBrowserInspector opens
 *   stately.ai/inspect in a window — needs the internet).
 * - `?inspect=ws` or VITE_INSPECT=ws: offline, createWebSocketInspector streams to a local
 *   WebSocket inspector server (`node scripts/inspect-server.mjs`, ws://localhost:8088 by default,
 *   VITE_INSPECT_URL to change it), which prints every event and relays them to the atlas.
 * - `?inspect=atlas` or VITE_INSPECT=atlas: offline, the same events on a BroadcastChannel to the
 *   flow atlas (/__atlas/) open in another tab of the same origin (./broadcast.ts).
 * These work under `npm run dev` (import.meta.env.DEV). A built app (`npm start`) asks its server
 * first (`GET /__atlas/live`): the demo shop answers, so they work there too; a production server
 * (NODE_ENV=production) does not, and @statelyai/inspect is never loaded. Nothing asked: undefined.
 */
import type { InspectionEvent, Observer } from 'xstate';
import { BroadcastAdapter } from './broadcast';

export type InspectMode = 'browser' | 'websocket' | 'atlas';

export interface InspectOptions {
  /** import.meta.env.DEV */
  dev: boolean;
  /** location.search */
  search: string;
  /** import.meta.env.VITE_INSPECT ('1' | 'ws') */
  flag?: string | undefined;
  /** WebSocket inspector server (import.meta.env.VITE_INSPECT_URL). */
  url?: string | undefined;
  /**
   * Outside development: whether the server allows inspection (the demo shop does). Without it a
   * build never inspects.
   */
  serverAllows?: (() => Promise<boolean>) | undefined;
}

export const DEFAULT_INSPECT_URL = 'ws://localhost:8088';

/** Which inspector the URL or VITE_INSPECT asks for, development or not. */
export function requestedMode(options: Pick<InspectOptions, 'search' | 'flag'>): InspectMode | null {
  const query = new URLSearchParams(options.search);
  const fromQuery = query.has('inspect') ? (query.get('inspect') ?? '') : null;
  const wanted = fromQuery ?? options.flag ?? null;
  if (wanted === null || wanted === '0' || wanted === 'false') return null;
  if (wanted === 'atlas') return 'atlas';
  return wanted === 'ws' || wanted === 'websocket' ? 'websocket' : 'browser';
}

/** Which inspector, if any, these options ask for in development. */
export function inspectMode(options: InspectOptions): InspectMode | null {
  return options.dev ? requestedMode(options) : null;
}

/** The demo shop's server answers this (server/web/atlas.ts); a production server does not. */
export const ATLAS_LIVE_PATH = '/__atlas/live';

async function askServer(): Promise<boolean> {
  try {
    const r = await fetch(ATLAS_LIVE_PATH, { headers: { accept: 'application/json' } });
    // a production server answers this path with the app's page (HTML) or a 404, never this
    const body = r.ok && (r.headers.get('content-type') ?? '').includes('application/json') ? ((await r.json()) as { data?: { inspect?: unknown } }) : null;
    return body?.data?.inspect === true;
  } catch {
    return false;
  }
}

function fromEnv(): InspectOptions {
  const env = import.meta.env as Record<string, string | boolean | undefined>;
  return {
    dev: env.DEV === true,
    search: typeof location === 'undefined' ? '' : location.search,
    flag: typeof env.VITE_INSPECT === 'string' ? env.VITE_INSPECT : undefined,
    url: typeof env.VITE_INSPECT_URL === 'string' ? env.VITE_INSPECT_URL : undefined,
    serverAllows: askServer,
  };
}

/** The observer for createActor's `inspect`, and a way to stop the inspector (close its socket). */
export interface InspectHandle extends Observer<InspectionEvent> {
  stop(): void;
}

/**
 * The `inspect` observer to give createActor, or undefined. The inspector module is loaded lazily;
 * events that arrive before it is ready are kept (up to 500) and sent once it is.
 */
export function createInspect(options: InspectOptions = fromEnv()): InspectHandle | undefined {
  const mode = options.dev ? inspectMode(options) : options.serverAllows ? requestedMode(options) : null;
  if (!mode) return undefined;
  let target: Observer<InspectionEvent> | null = null;
  let stopInspector: (() => void) | null = null;
  let stopped = false;
  let refused = false;
  const pending: InspectionEvent[] = [];
  const allowed = options.dev ? Promise.resolve(true) : options.serverAllows!();
  void allowed.then(async (ok) => {
    if (!ok || stopped) {
      refused = true;
      pending.length = 0;
      return;
    }
    const m = await import('@statelyai/inspect');
    if (stopped) return;
    const inspector =
      mode === 'browser'
        ? m.createBrowserInspector()
        : mode === 'atlas'
          ? m.createInspector(new BroadcastAdapter())
          : m.createWebSocketInspector({ url: options.url ?? DEFAULT_INSPECT_URL });
    if (mode === 'atlas') inspector.start();
    target = inspector.inspect;
    stopInspector = () => inspector.stop();
    for (const event of pending.splice(0)) target.next?.(event);
  });
  return {
    next(event) {
      if (target) target.next?.(event);
      else if (!refused && pending.push(event) > 500) pending.shift();
    },
    stop() {
      stopped = true;
      stopInspector?.();
    },
  };
}
