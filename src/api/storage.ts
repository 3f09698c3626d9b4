/**
 * What the browser keeps in localStorage (spec sections 1, 2): the anonymous visitor id
 * (generated once), the logged-in student's id, the guest's name and e-mail, the page path as
 * the return link, and the persisted snapshots of flows that leave the page. Every access is
 * guarded: storage may be unavailable (private mode, quota), the app keeps working without it.
 */
import type { FlowStorage } from '../../machines/shared/persistence';

export const STORAGE_KEYS = {
  visitorId: 'visitor_id',
  userId: 'user_id',
  guest: 'guest_buyer',
  returnLink: 'return_link',
  flow: 'checkout-flow',
} as const;

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readItem(key: string): string | null {
  try {
    return store()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string): void {
  try {
    store()?.setItem(key, value);
  } catch {
    // full or unavailable: the value lives only in memory for this page
  }
}

export function removeItem(key: string): void {
  try {
    store()?.removeItem(key);
  } catch {
    // unavailable
  }
}

function randomHex(bytes: number): string {
  const a = new Uint8Array(bytes);
  if (typeof crypto !== 'undefined' && typeof crypto.getRandomValues === 'function') crypto.getRandomValues(a);
  else for (let i = 0; i < a.length; i += 1) a[i] = Math.floor(Math.random() * 256);
  return [...a].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A new UUID v4 (idempotency keys). */
export function newUuid(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const h = randomHex(16).split('');
  h[12] = '4';
  h[16] = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

let memoryVisitorId: string | null = null;

/** The anonymous visitor's id (CartOwnerId `v_…`), generated once and kept. */
export function visitorId(): string {
  const kept = readItem(STORAGE_KEYS.visitorId);
  if (kept && /^[A-Za-z0-9_-]{1,64}$/.test(kept)) return kept;
  const id = memoryVisitorId ?? `v_${randomHex(8)}`;
  memoryVisitorId = id;
  writeItem(STORAGE_KEYS.visitorId, id);
  return id;
}

/** The logged-in student's id, kept in the browser (spec section 1). */
export function keptUserId(): number | null {
  const v = Number(readItem(STORAGE_KEYS.userId));
  return Number.isInteger(v) && v > 0 ? v : null;
}

export function keepUserId(id: number | null): void {
  if (id === null) removeItem(STORAGE_KEYS.userId);
  else writeItem(STORAGE_KEYS.userId, String(id));
}

/** The cart owner id: the student's id as text when logged in, else the visitor id. */
export function cartOwnerId(userId: number | null | undefined): string {
  return userId ? String(userId) : visitorId();
}

export interface GuestBuyer {
  name: string;
  email: string;
}

/** Guests pay with a name and e-mail kept in the browser. */
export function readGuest(): GuestBuyer | null {
  try {
    const v = JSON.parse(readItem(STORAGE_KEYS.guest) ?? 'null') as Partial<GuestBuyer> | null;
    return v && typeof v.email === 'string' && typeof v.name === 'string' ? { name: v.name, email: v.email } : null;
  } catch {
    return null;
  }
}

export function keepGuest(guest: GuestBuyer | null): void {
  if (guest) writeItem(STORAGE_KEYS.guest, JSON.stringify(guest));
  else removeItem(STORAGE_KEYS.guest);
}

/** The course page keeps its own path as the link to return to (spec section 2). */
export function keepReturnLink(path: string): void {
  writeItem(STORAGE_KEYS.returnLink, path);
}

/**
 * A path on our own origin to send the buyer back to, or null: it starts with one '/' (not '//',
 * which browsers read as another host) and holds no backslash (browsers read '/\\' as '//') nor
 * control characters.
 */
export function sameOriginPath(v: string | null | undefined): string | null {
  if (!v || !v.startsWith('/') || v.startsWith('//')) return null;
  for (const ch of v) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\' || c < 0x20 || c === 0x7f) return null;
  }
  return v;
}

export function returnLink(): string | null {
  return sameOriginPath(readItem(STORAGE_KEYS.returnLink));
}

/** localStorage as the FlowStorage of machines/shared/persistence (persisted snapshots). */
export const localFlowStorage: FlowStorage = {
  save: writeItem,
  load: readItem,
  remove: removeItem,
};
