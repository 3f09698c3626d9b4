/**
 * The Stately inspector, in development only. Pass the result as `inspect` to every createActor /
 * useActorRef (root actors; their children are inspected with them):
 *
 *   const inspect = createInspect();
 *   const checkout = createActor(logic, { input, inspect });
 *
 * - `?inspect` in the URL or VITE_INSPECT=1: the browser inspector (createBrowserInspector opens
 *   stately.ai/inspect in a window — needs the internet).
 * - `?inspect=ws` or VITE_INSPECT=ws: offline, createWebSocketInspector streams to a local
 *   WebSocket inspector server (`node scripts/inspect-server.mjs`, ws://localhost:8088 by default,
 *   VITE_INSPECT_URL to change it), which prints every event.
 * Anything else (and every production build): undefined, and @statelyai/inspect is never loaded.
 */
import type { InspectionEvent, Observer } from 'xstate';

export type InspectMode = 'browser' | 'websocket';

export interface InspectOptions {
  /** import.meta.env.DEV */
  dev: boolean;
  /** location.search */
  search: string;
  /** import.meta.env.VITE_INSPECT ('1' | 'ws') */
  flag?: string | undefined;
  /** WebSocket inspector server (import.meta.env.VITE_INSPECT_URL). */
  url?: string | undefined;
}

export const DEFAULT_INSPECT_URL = 'ws://localhost:8088';

/** Which inspector, if any, these options ask for. */
export function inspectMode(options: InspectOptions): InspectMode | null {
  if (!options.dev) return null;
  const query = new URLSearchParams(options.search);
  const fromQuery = query.has('inspect') ? (query.get('inspect') ?? '') : null;
  const wanted = fromQuery ?? options.flag ?? null;
  if (wanted === null || wanted === '0' || wanted === 'false') return null;
  return wanted === 'ws' || wanted === 'websocket' ? 'websocket' : 'browser';
}

function fromEnv(): InspectOptions {
  const env = import.meta.env as Record<string, string | boolean | undefined>;
  return {
    dev: env.DEV === true,
    search: typeof location === 'undefined' ? '' : location.search,
    flag: typeof env.VITE_INSPECT === 'string' ? env.VITE_INSPECT : undefined,
    url: typeof env.VITE_INSPECT_URL === 'string' ? env.VITE_INSPECT_URL : undefined,
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
  const mode = inspectMode(options);
  if (!mode) return undefined;
  let target: Observer<InspectionEvent> | null = null;
  let stopInspector: (() => void) | null = null;
  let stopped = false;
  const pending: InspectionEvent[] = [];
  void import('@statelyai/inspect').then((m) => {
    if (stopped) return;
    const inspector = mode === 'browser' ? m.createBrowserInspector() : m.createWebSocketInspector({ url: options.url ?? DEFAULT_INSPECT_URL });
    target = inspector.inspect;
    stopInspector = () => inspector.stop();
    for (const event of pending.splice(0)) target.next?.(event);
  });
  return {
    next(event) {
      if (target) target.next?.(event);
      else if (pending.push(event) > 500) pending.shift();
    },
    stop() {
      stopped = true;
      stopInspector?.();
    },
  };
}
