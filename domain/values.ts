/** Small readers for the loose shapes the backend sends (flags, id lists, instants). */
import type { Flag, IdList } from './types';

/** true, 1, '1' and 'true' mean yes; everything else (0, '0', null, undefined, '') means no. */
export function isOn(flag: Flag): boolean {
  return flag === true || flag === 1 || flag === '1' || flag === 'true';
}

/**
 * A list of ids from number[] / string[] / "1, 2,3". Non-numeric and non-positive-integer
 * entries are dropped; order kept; duplicates removed.
 */
export function idList(list: IdList): number[] {
  if (list === null || list === undefined) return [];
  const raw: readonly (number | string)[] = typeof list === 'string' ? list.split(',') : list;
  const out: number[] = [];
  for (const item of raw) {
    const n = typeof item === 'number' ? item : item.trim() === '' ? NaN : Number(item.trim());
    if (Number.isSafeInteger(n) && n > 0 && !out.includes(n)) out.push(n);
  }
  return out;
}

const ZONELESS = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/u;

/**
 * An instant (Date, epoch ms, or ISO text) as epoch ms; throws RangeError when not a valid time.
 * Text without a zone ("2024-01-31 10:00:00") is read as UTC (decisions.md #8: we store UTC),
 * never as the machine's local time, so browser and server agree.
 */
export function toEpochMs(value: string | number | Date): number {
  let ms: number;
  if (value instanceof Date) ms = value.getTime();
  else if (typeof value === 'number') ms = value;
  else {
    const m = ZONELESS.exec(value.trim());
    ms = Date.parse(m ? `${m[1]}T${m[2]}Z` : value.trim());
  }
  if (!Number.isFinite(ms)) throw new RangeError(`not a valid time: ${String(value)}`);
  return ms;
}

/**
 * Stable JSON: object keys sorted at every level, so equal values give equal text. The key a cart
 * quote is filed under in the browser and the quote version on the server.
 */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * The picture a course page opens with: its preview's picture, else its image (null: none). The
 * course page draws it (CourseHero) and the server's first view draws the same one before the
 * app runs (server/web/head.ts), in the same box.
 */
export function coursePicture(course: { image?: string | null; preview_video?: { picture_url?: string | null } | null }): string | null {
  return course.preview_video?.picture_url ?? course.image ?? null;
}

/** The box of a course page's picture (16:9), its width and height attributes. */
export const COURSE_PICTURE = { width: 1200, height: 675 } as const;
