/**
 * The running actors as the inspection stream tells them (the events @statelyai/inspect sends the
 * Stately inspector: `@xstate.actor`, `@xstate.event`, `@xstate.snapshot`), from a
 * BroadcastChannel (the app's `?inspect=atlas`) or the local WebSocket inspector server
 * (`?inspect=ws`, scripts/inspect-server.mjs relays to the atlas).
 */
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { INSPECT_CHANNEL, type AtlasMessage } from '../inspect/broadcast';

export interface LiveActor {
  sessionId: string;
  /** The actor's name (its id in its parent, or the machine id). */
  name: string;
  /** The machine id from its definition; null for actors that are not machines (promises, callbacks). */
  machine: string | null;
  parentId: string | null;
  status: string;
  value: unknown;
  context: unknown;
  /** The event of the latest snapshot, and the one before it (with the state it left). */
  lastEvent: { type: string; [k: string]: unknown } | null;
  previousValue: unknown;
  updatedAt: number;
  /** The latest events sent to it (newest last). */
  events: { type: string; source: string | null; at: number }[];
  /** Increases with each snapshot. */
  step: number;
}

function machineOf(definition: string | undefined): string | null {
  if (!definition) return null;
  try {
    const d = JSON.parse(definition) as { id?: unknown; states?: unknown };
    return typeof d.id === 'string' && d.states && typeof d.states === 'object' ? d.id : null;
  } catch {
    return null;
  }
}

export class LiveActors {
  readonly actors = new Map<string, LiveActor>();
  private listeners = new Set<(actor: LiveActor | null) => void>();
  private clock = 0;

  subscribe(fn: (actor: LiveActor | null) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(actor: LiveActor | null): void {
    for (const fn of this.listeners) fn(actor);
  }

  receive(e: StatelyInspectionEvent): void {
    const now = ++this.clock;
    if (e.type === '@xstate.actor') {
      const known = this.actors.get(e.sessionId);
      const actor: LiveActor = known ?? {
        sessionId: e.sessionId,
        name: e.name,
        machine: machineOf(e.definition),
        parentId: e.parentId ?? null,
        status: e.snapshot?.status ?? 'active',
        value: e.snapshot?.value,
        context: e.snapshot?.context,
        lastEvent: null,
        previousValue: undefined,
        updatedAt: now,
        events: [],
        step: 0,
      };
      this.actors.set(e.sessionId, actor);
      this.emit(actor);
      return;
    }
    const actor = this.actors.get(e.sessionId);
    if (!actor) return;
    if (e.type === '@xstate.event') {
      actor.events.push({ type: String(e.event?.type ?? ''), source: e.sourceId ?? null, at: Date.now() });
      if (actor.events.length > 50) actor.events.shift();
      return;
    }
    if (e.type === '@xstate.snapshot') {
      const snap = e.snapshot as { value?: unknown; context?: unknown; status?: string };
      actor.previousValue = actor.value;
      actor.value = snap.value;
      actor.context = snap.context;
      actor.status = snap.status ?? actor.status;
      actor.lastEvent = (e.event as LiveActor['lastEvent']) ?? null;
      actor.updatedAt = now;
      actor.step += 1;
      this.emit(actor);
    }
  }

  /** The most recently updated actor of a machine. */
  latestOf(machine: string): LiveActor | null {
    let best: LiveActor | null = null;
    for (const a of this.actors.values()) if (a.machine === machine && (!best || a.updatedAt > best.updatedAt)) best = a;
    return best;
  }

  clear(): void {
    this.actors.clear();
    this.emit(null);
  }
}

/** Listens on the app's BroadcastChannel (and asks the app tabs for what they already run). */
export function listenBroadcast(live: LiveActors, name = INSPECT_CHANNEL): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(name);
  channel.onmessage = (m: MessageEvent<AtlasMessage>) => {
    const data = m.data;
    if (data?.kind === 'inspection') live.receive(data.event);
    else if (data?.kind === 'replay') for (const e of data.events) live.receive(e);
  };
  channel.postMessage({ kind: 'hello' } satisfies AtlasMessage);
  return () => channel.close();
}

/** Listens to the local WebSocket inspector server (scripts/inspect-server.mjs), reconnecting. */
export function listenWebSocket(live: LiveActors, url: string, onStatus: (s: string) => void): () => void {
  let socket: WebSocket | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const connect = () => {
    if (stopped) return;
    onStatus(`connecting to ${url}`);
    socket = new WebSocket(url);
    socket.onopen = () => onStatus(`connected to ${url}`);
    socket.onmessage = (m) => {
      try {
        const e = JSON.parse(String(m.data)) as StatelyInspectionEvent;
        if (e && typeof e === 'object' && 'type' in e) live.receive(e);
      } catch {
        // not an inspection event
      }
    };
    socket.onclose = () => {
      if (stopped) return;
      onStatus(`no inspector server at ${url} (node scripts/inspect-server.mjs); retrying`);
      timer = setTimeout(connect, 2000);
    };
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close();
  };
}
