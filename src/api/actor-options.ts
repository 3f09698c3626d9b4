/**
 * Actor options shared by every actor the app creates (the inspector hook-up goes here once
 * src/inspect lands: `{ inspect }` from it). `id` names the actor in the inspector.
 */
export function actorOptions(id: string): { id: string } {
  return { id };
}
