/**
 * One process per PGlite folder. PGlite is PostgreSQL compiled to WASM inside one process: two
 * processes on one folder each keep their own view and the last to exit overwrites the other's
 * writes. Opening a folder (server/db/index.ts createDb) therefore takes its lock: the holder file
 * `<folder>.server.json` is created exclusively (O_EXCL) with `{ pid, token, command, started }`;
 * the server adds its `url` once it listens (scripts/admin.ts reads it to reach that server).
 *
 *  - A second process is refused with PgliteLockedError, naming the folder and the holder's pid.
 *  - The file belongs to its holder: release() (db.close(), or the process's exit) deletes it only
 *    while it still carries this holder's token; nobody else deletes a live holder's file.
 *  - A holder that died without releasing (kill -9, a crash) leaves the file behind: its pid no
 *    longer runs, so the next process takes the folder over.
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface PgliteHolder {
  pid: number;
  /** The holder's own secret: only the holder deletes or rewrites the file. */
  token?: string;
  /** What runs there (its command line). */
  command?: string;
  /** When it took the folder (ISO time). */
  started?: string;
  /** Where the server holding the folder answers (set once it listens). */
  url?: string;
}

export interface PgliteLock {
  readonly dataDir: string;
  readonly file: string;
  /** Adds fields (the server's url) to the holder file, while it is still ours. */
  update(fields: Partial<Omit<PgliteHolder, 'pid' | 'token'>>): void;
  /** Deletes the holder file if it is still ours (idempotent). */
  release(): void;
}

/** The holder file of a PGlite folder (next to it, not inside: PGlite owns the folder). */
export function pgliteHolderFile(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, '')}.server.json`;
}

export class PgliteLockedError extends Error {
  readonly dataDir: string;
  readonly holder: PgliteHolder;
  constructor(dataDir: string, holder: PgliteHolder) {
    const what = [holder.command, holder.started && `since ${holder.started}`, holder.url && `serving ${holder.url}`].filter(Boolean).join(', ');
    super(
      `The embedded database folder ${dataDir} is in use by process ${holder.pid}${what ? ` (${what})` : ''}.\n` +
        `One process per PGlite folder: stop that process first, or give this one another PGLITE_DIR (several processes share a PostgreSQL: DATABASE_URL).\n` +
        `If process ${holder.pid} is not this shop, delete ${pgliteHolderFile(dataDir)}.`,
    );
    this.name = 'PgliteLockedError';
    this.dataDir = dataDir;
    this.holder = holder;
  }
}

/** The live holder of a folder, or null (no file, unreadable, or its process is gone). */
export function pgliteHolderOf(dataDir: string): PgliteHolder | null {
  const h = readHolder(pgliteHolderFile(dataDir));
  return h && alive(h.pid) ? h : null;
}

function readHolder(file: string): PgliteHolder | null {
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as PgliteHolder;
    return Number.isSafeInteger(h.pid) && h.pid > 0 ? h : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const held = new Map<string, PgliteLock>();

/** The lock this process holds on a folder, if any (main.ts adds its url to it). */
export function heldPgliteLock(dataDir: string): PgliteLock | null {
  return held.get(resolve(dataDir)) ?? null;
}

let exitHook = false;

/** Takes the folder's lock, waiting up to waitMs for a live holder to let go; else PgliteLockedError. */
export async function lockPgliteFolder(dataDir: string, options: { waitMs?: number } = {}): Promise<PgliteLock> {
  const dir = resolve(dataDir);
  const file = pgliteHolderFile(dir);
  const mine: PgliteHolder = {
    pid: process.pid,
    token: randomBytes(12).toString('hex'),
    command: process.argv.slice(1).map((a) => a.replace(/^.*\/node_modules\//, '')).join(' ').slice(0, 200),
    started: new Date().toISOString(),
  };
  const until = Date.now() + (options.waitMs ?? 0);
  for (let round = 0; ; round++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      try {
        writeSync(fd, JSON.stringify(mine));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const other = readHolder(file);
    if (other === null && round < 10) {
      // Being written by its holder this very moment (or garbage): look again shortly.
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    if (other && alive(other.pid)) {
      if (Date.now() < until) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      throw new PgliteLockedError(dir, other);
    }
    // The holder is gone (or the file is unreadable): take the folder over. Move the stale file
    // aside first, and put it back if it turns out to be a live holder's that just replaced it.
    const aside = `${file}.${mine.token}.stale`;
    try {
      renameSync(file, aside);
    } catch {
      continue; // someone else moved it: try again
    }
    const moved = readHolder(aside);
    if (moved && alive(moved.pid) && moved.token !== other?.token) {
      try {
        renameSync(aside, file);
      } catch {
        rmSync(aside, { force: true });
      }
      continue;
    }
    rmSync(aside, { force: true });
  }

  const lock: PgliteLock = {
    dataDir: dir,
    file,
    update(fields) {
      const now = readHolder(file);
      if (now?.token !== mine.token) return;
      Object.assign(mine, fields);
      writeFileSync(`${file}.${mine.token}.tmp`, JSON.stringify(mine));
      renameSync(`${file}.${mine.token}.tmp`, file);
    },
    release() {
      if (held.get(dir) !== lock) return;
      held.delete(dir);
      if (readHolder(file)?.token === mine.token) rmSync(file, { force: true });
    },
  };
  held.set(dir, lock);
  if (!exitHook) {
    exitHook = true;
    // A process that exits without closing its database still gives its folders back.
    process.on('exit', () => {
      for (const l of [...held.values()]) l.release();
    });
  }
  return lock;
}
