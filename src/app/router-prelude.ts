/**
 * What react-router's browser router asks of the browser process when it is created, done before it
 * in tasks of their own. Creating the router (createBrowserRouter) numbers the first history entry
 * (`history.replaceState({ ...state, idx: 0 })` when the entry has no `idx`, react-router's
 * createBrowserHistory) and reads sessionStorage (its view transitions, `restoreAppliedTransitions`).
 * Each is a synchronous call to the browser process: the same-document navigation it reports, and
 * the storage area's first load with the check that the page may use storage. The main thread waits
 * for the answer, and on a phone loading the page the browser process is busy: in traces of layout 4
 * on a quiet machine the replaceState alone waited 0.3-11.3 ms inside the router's task (bench/why.md,
 * the eleventh pass). Done here first, the router finds the entry numbered and the storage area
 * loaded, and its own task is its own work.
 */

/** Numbers the current history entry as react-router would (idx 0), unless it has an index already. */
export function numberFirstHistoryEntry(history: History = window.history): void {
  const state: unknown = history.state;
  if (state !== null && typeof state === 'object' && (state as { idx?: unknown }).idx != null) return;
  history.replaceState({ ...(state as object | null), idx: 0 }, '');
}

/** Loads this tab's sessionStorage area (a refused or missing storage is not an error: the router reads nothing then either). */
export function openSessionStorage(): void {
  try {
    void window.sessionStorage.length;
  } catch {
    // storage switched off: react-router's own read fails the same way, and it goes on without
  }
}
