/** Shared pieces of the form schemas: results, text fields that report one message each. */
import { z } from 'zod/mini';
import { isMessageKey, MSG, msgOf, type Msg, type MsgParams, type Shown } from '../messages';

/**
 * One invalid field: its path ("email", "customLabel.3", "tax_address") and the message to show —
 * a message by key from our rules, or the server's already rendered text of a 400 answer's issue.
 */
export interface FieldError {
  path: string;
  message: Shown;
}

export type FormResult<T> = { ok: true; errors: []; data: T } | { ok: false; errors: FieldError[] };

/** A zod safeParse result as { ok, errors } (errors in the order zod reports them). */
export function toFormResult<T>(r: { success: true; data: T } | { success: false; error: z.core.$ZodError }): FormResult<T> {
  if (r.success) return { ok: true, errors: [], data: r.data };
  return { ok: false, errors: r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: issueMsg(i) })) };
}

/**
 * A zod issue's message reference: our rules raise custom issues whose message is a catalogue key
 * (and whose params are the message's params, see `addMsgIssue`); zod's own issues (a wrong type)
 * are FIELD_INVALID.
 */
function issueMsg(issue: z.core.$ZodIssue): Msg {
  if (!isMessageKey(issue.message)) return MSG.FIELD_INVALID;
  const params = issue.code === 'custom' ? (issue.params as MsgParams | undefined) : undefined;
  return msgOf(issue.message, params);
}

/** Raises a message reference as a zod issue (read back by `toFormResult`). */
export function addMsgIssue(ctx: { addIssue: (issue: z.core.$ZodRawIssue) => void }, m: Shown, path?: PropertyKey[]): void {
  const { key, params } = typeof m === 'string' ? MSG.FIELD_INVALID : m;
  ctx.addIssue({ code: 'custom', input: undefined, message: key, ...(params ? { params: { ...params } } : {}), ...(path ? { path } : {}) });
}

/** The first error's message, or null. */
export function firstError(result: FormResult<unknown>): Shown | null {
  return result.ok ? null : (result.errors[0]?.message ?? null);
}

/** Text input: string, null or undefined, read as a trimmed string ('' when empty). */
export const text = z.pipe(z.nullish(z.string()), z.transform((v: string | null | undefined) => (v ?? '').trim()));

/** A rule: a test and the message when it fails. */
export type Rule = readonly [test: (value: string) => boolean, message: Msg];

/** A text field checked by rules in order; only the first failing rule is reported. */
export function textField(rules: readonly Rule[]) {
  return text.check(
    z.superRefine((value: string, ctx) => {
      for (const [test, message] of rules) {
        if (!test(value)) {
          addMsgIssue(ctx, message);
          return;
        }
      }
    }),
  );
}

export const filled = (v: string): boolean => v !== '';

/** Something was given: a non-blank string, a non-empty list with a filled item, a number, true. */
export function isFilledValue(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.some(isFilledValue);
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'boolean') return value;
  return true;
}

/** zod's own e-mail check (the "standard address pattern"). */
export function isEmail(v: string): boolean {
  return z.email().safeParse(v).success;
}
