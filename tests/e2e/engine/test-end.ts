/**
 * What a test set up in the shop and must undo when it ends, passed or failed (a bank account
 * added, the thank-you page switched off). fixtures.ts runs these after each test, the last
 * registered first, while the test's `request` is still open, and fails the test when an undo
 * fails (the next test of the worker would meet the shop as this one left it).
 */
const pending: (() => Promise<unknown>)[] = [];

/** Runs `undo` when the current test ends (after its body, before the next test). */
export function whenTestEnds(undo: () => Promise<unknown>): void {
  pending.push(undo);
}

/** Runs and forgets what the test registered; a failing undo is reported after the others ran. */
export async function runTestEnds(): Promise<void> {
  const errors: unknown[] = [];
  while (pending.length) {
    try {
      await pending.pop()!();
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length) throw new AggregateError(errors, `${errors.length} undo step(s) of the test failed`);
}
