/**
 * Paths the app fails today, by `machine: path title`, each with why. They still run (test.fail):
 * the suite goes red when one of them starts passing, so this list is emptied as the app is fixed.
 * A reason starting with 'flaky: ' marks a path that fails only sometimes: it is not run (fixme).
 */
export const KNOWN_BROKEN: Record<string, string> = {};
