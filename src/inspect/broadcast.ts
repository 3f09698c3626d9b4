/**
 * The flow atlas's feed (`?inspect=atlas`): an adapter for @statelyai/inspect's createInspector
 * that posts the same inspection events the Stately inspector gets (`@xstate.actor`,
 * `@xstate.event`, `@xstate.snapshot`) on a BroadcastChannel, so any tab of the same origin —
 * the atlas page (src/atlas) — receives them, offline. It keeps each actor's registration and
 * latest snapshot, and posts them again when an atlas opened later says hello.
 */
import type { StatelyInspectionEvent } from '@statelyai/inspect';

export const INSPECT_CHANNEL = 'course-shop:inspect';

export type AtlasMessage =
  | { kind: 'inspection'; event: StatelyInspectionEvent }
  | { kind: 'hello' }
  | { kind: 'replay'; events: StatelyInspectionEvent[] };

/** A JSON-safe copy (no functions, no cycles, files and DOM nodes as their name), as the WebSocket inspector sends. */
export function jsonSafe<T>(value: T): T {
  const seen = new WeakSet<object>();
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'function' || typeof v === 'symbol') return undefined;
    if (typeof v === 'bigint') return v.toString();
    if (v && typeof v === 'object') {
      if (seen.has(v)) return '[circular]';
      seen.add(v);
      if (typeof Blob !== 'undefined' && v instanceof Blob) return `[${v.constructor.name} ${(v as File).name ?? ''} ${v.size} B]`;
      if (typeof Node !== 'undefined' && v instanceof Node) return `[${v.nodeName}]`;
    }
    return v;
  });
  return (text === undefined ? null : JSON.parse(text)) as T;
}

interface Kept {
  actor: StatelyInspectionEvent;
  snapshot: StatelyInspectionEvent | null;
}

/** Most actors kept for a late atlas (oldest forgotten first). */
const KEEP = 200;

export class BroadcastAdapter {
  private channel: BroadcastChannel | null = null;
  private readonly kept = new Map<string, Kept>();

  private readonly name: string;

  constructor(name: string = INSPECT_CHANNEL) {
    this.name = name;
  }

  start(): void {
    if (this.channel || typeof BroadcastChannel === 'undefined') return;
    this.channel = new BroadcastChannel(this.name);
    this.channel.onmessage = (m: MessageEvent<AtlasMessage>) => {
      if (m.data?.kind !== 'hello') return;
      const events: StatelyInspectionEvent[] = [];
      for (const k of this.kept.values()) events.push(k.actor, ...(k.snapshot ? [k.snapshot] : []));
      this.post({ kind: 'replay', events });
    };
  }

  stop(): void {
    this.channel?.close();
    this.channel = null;
  }

  send(event: StatelyInspectionEvent): void {
    const safe = jsonSafe(event);
    if (safe.type === '@xstate.actor') {
      this.kept.set(safe.sessionId, { actor: safe, snapshot: null });
      if (this.kept.size > KEEP) this.kept.delete(this.kept.keys().next().value!);
    } else if (safe.type === '@xstate.snapshot') {
      const k = this.kept.get(safe.sessionId);
      if (k) k.snapshot = safe;
    }
    this.post({ kind: 'inspection', event: safe });
  }

  private post(message: AtlasMessage): void {
    try {
      this.channel?.postMessage(message);
    } catch {
      // a value the channel cannot clone: the atlas misses this one event
    }
  }
}
