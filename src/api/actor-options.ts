/**
 * Options every root actor the app creates gets: its name, and the inspector (src/inspect) in
 * development when asked for (?inspect, ?inspect=ws, VITE_INSPECT); children are inspected with
 * their root. In production `inspect` is undefined and @statelyai/inspect is never loaded.
 */
import type { InspectionEvent, Observer } from 'xstate';
import { createInspect } from '../inspect';

let handle: Observer<InspectionEvent> | undefined | null = null;

/** Test hook: the browser tests (tests/e2e) define `window.__E2E_INSPECT__` to record the machines' states. */
type E2eWindow = { __E2E_INSPECT__?: (event: InspectionEvent) => void };

function inspector(): Observer<InspectionEvent> | undefined {
  const e2e = typeof window === 'undefined' ? undefined : (window as unknown as E2eWindow).__E2E_INSPECT__;
  if (typeof e2e === 'function') return { next: e2e };
  if (handle === null) handle = createInspect();
  return handle;
}

export function actorOptions(id: string): { id: string; inspect?: Observer<InspectionEvent> } {
  const inspect = inspector();
  return inspect ? { id, inspect } : { id };
}
