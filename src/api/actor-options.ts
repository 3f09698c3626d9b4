/**
 * Options every root actor the app creates gets: its name, and the inspector (src/inspect) in
 * development when asked for (?inspect, ?inspect=ws, VITE_INSPECT); children are inspected with
 * their root. In production `inspect` is undefined and @statelyai/inspect is never loaded.
 */
import type { InspectionEvent, Observer } from 'xstate';
import { createInspect } from '../inspect';

let handle: Observer<InspectionEvent> | undefined | null = null;

function inspector(): Observer<InspectionEvent> | undefined {
  if (handle === null) handle = createInspect();
  return handle;
}

export function actorOptions(id: string): { id: string; inspect?: Observer<InspectionEvent> } {
  const inspect = inspector();
  return inspect ? { id, inspect } : { id };
}
