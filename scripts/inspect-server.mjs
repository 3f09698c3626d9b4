#!/usr/bin/env node
// Offline inspector server for `?inspect=ws` (src/inspect): receives the inspection events the
// app streams with @statelyai/inspect's createWebSocketInspector, prints one line per event, and
// relays them to every other connected client (e.g. a createWebSocketReceiver viewer).
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

const wss = new WebSocketServer({ port });
wss.on('connection', (socket) => {
  socket.on('message', (data) => {
    const text = data.toString();
    if (!quiet) {
      try {
        console.log(describe(JSON.parse(text)));
      } catch {
        console.log(text.slice(0, 200));
      }
    }
    for (const client of wss.clients) if (client !== socket && client.readyState === 1) client.send(text);
  });
});
wss.on('listening', () => console.log(`inspector server on ws://localhost:${port} — open the app with ?inspect=ws`));
const stop = () => wss.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
