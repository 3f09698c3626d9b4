#!/usr/bin/env node
// Offline inspector server for `?inspect=ws` (src/inspect): receives the inspection events the
// app streams with @statelyai/inspect's createWebSocketInspector, prints one line per event, and
// relays them to every other connected client — the flow atlas (/__atlas/?ws=ws://localhost:8088)
// or a createWebSocketReceiver viewer. A client that connects later first gets every actor seen so
// far with its latest snapshot, so it shows what is running now.
//   node scripts/inspect-server.mjs [--port 8088] [--quiet]
import { WebSocketServer } from 'ws';

const args = process.argv.slice(2);
const port = Number(args[args.indexOf('--port') + 1] || process.env.INSPECT_PORT || 8088);
const quiet = args.includes('--quiet');

export function describe(e) {
  const who = e.sessionId ?? '?';
  if (e.type === '@xstate.actor') return `actor    ${who} ${e.name ?? ''}`;
  if (e.type === '@xstate.event') return `event    ${who} <- ${e.event?.type ?? ''}${e.sourceId ? ` from ${e.sourceId}` : ''}`;
  if (e.type === '@xstate.snapshot') return `snapshot ${who} ${JSON.stringify(e.snapshot?.value ?? e.snapshot?.status ?? '')}`;
  return `${e.type} ${who}`;
}

/** sessionId -> { actor, snapshot } (texts as received), the oldest forgotten past 500. */
const kept = new Map();

export function keep(text, e) {
  if (e?.type === '@xstate.actor') {
    kept.set(e.sessionId, { actor: text, snapshot: null });
    if (kept.size > 500) kept.delete(kept.keys().next().value);
  } else if (e?.type === '@xstate.snapshot' && kept.has(e.sessionId)) kept.get(e.sessionId).snapshot = text;
}

const wss = new WebSocketServer({ port });
wss.on('connection', (socket) => {
  for (const k of kept.values()) {
    socket.send(k.actor);
    if (k.snapshot) socket.send(k.snapshot);
  }
  socket.on('message', (data) => {
    const text = data.toString();
    let event = null;
    try {
      event = JSON.parse(text);
    } catch {
      // not JSON: relayed as it is
    }
    if (!quiet) console.log(event ? describe(event) : text.slice(0, 200));
    keep(text, event);
    for (const client of wss.clients) if (client !== socket && client.readyState === 1) client.send(text);
  });
});
wss.on('listening', () => console.log(`inspector server on ws://localhost:${port} — open the app with ?inspect=ws, and the atlas with /__atlas/?ws=ws://localhost:${port}`));
const stop = () => wss.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
