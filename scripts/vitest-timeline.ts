/**
 * A vitest reporter that writes where a run's wall time went (docs/testing.md, "Time"):
 * `.test-reports/vitest-timeline.json` and a short table at the end of the run.
 *   npx vitest run --coverage --reporter=default --reporter=./scripts/vitest-timeline.ts
 * Per file: its project, when a worker took it (queued), when its tests started and when it ended
 * (milliseconds after the run started) and vitest's own split (environment, prepare, import of the
 * file and its modules = collect, setup files, tests and hooks). The workers are not named in
 * vitest's reporter events, so each file is placed on the lane (worker) that was free for the
 * longest when it was queued: with `maxWorkers` lanes that is the order vitest's pool hands files out.
 * The table: per project the files and their seconds; the time before the first file (vitest's
 * start, the server project's global setup), the time after the last file (the coverage report),
 * and each lane's busy and idle seconds, so a lane that ends early shows as idle at the end.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

interface Row {
  project: string;
  file: string;
  queued: number;
  start: number;
  end: number;
  lane: number;
  environment: number;
  prepare: number;
  collect: number;
  setup: number;
  duration: number;
  tests: number;
}

const s = (ms: number) => (ms / 1000).toFixed(1);

export default class TimelineReporter implements Reporter {
  private vitest!: Vitest;
  private t0 = Date.now();
  private queued = new Map<string, number>();
  private started = new Map<string, number>();
  private rows: Row[] = [];
  private lanes: number[] = [];
  private lastEnd = 0;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    this.t0 = Date.now();
  }

  onTestModuleQueued(m: TestModule): void {
    this.queued.set(m.moduleId + m.project.name, Date.now() - this.t0);
  }

  onTestModuleStart(m: TestModule): void {
    this.started.set(m.moduleId + m.project.name, Date.now() - this.t0);
  }

  onTestModuleEnd(m: TestModule): void {
    const end = Date.now() - this.t0;
    const key = m.moduleId + m.project.name;
    const queued = this.queued.get(key) ?? end;
    const d = m.diagnostic();
    // The lane that has been free the longest (vitest hands the next file to a free worker).
    const maxLanes = Math.max(1, Number(this.vitest.config.maxWorkers) || 1);
    while (this.lanes.length < maxLanes) this.lanes.push(0);
    let lane = 0;
    for (let i = 1; i < this.lanes.length; i++) if (this.lanes[i]! < this.lanes[lane]!) lane = i;
    this.lanes[lane] = end;
    this.lastEnd = Math.max(this.lastEnd, end);
    this.rows.push({
      project: m.project.name,
      file: relative(this.vitest.config.root, m.moduleId),
      queued,
      start: this.started.get(key) ?? queued,
      end,
      lane,
      environment: d.environmentSetupDuration,
      prepare: d.prepareDuration,
      collect: d.collectDuration,
      setup: d.setupDuration,
      duration: d.duration,
      tests: [...m.children.allTests()].length,
    });
  }

  onTestRunEnd(): void {
    // Lanes again, now in queue order (ends arrive in end order, not start order).
    const rows = [...this.rows].sort((a, b) => a.queued - b.queued);
    const free: number[] = [];
    const maxLanes = Math.max(1, Number(this.vitest.config.maxWorkers) || 1);
    for (let i = 0; i < maxLanes; i++) free.push(0);
    for (const r of rows) {
      let lane = 0;
      for (let i = 1; i < free.length; i++) if (free[i]! < free[lane]!) lane = i;
      r.lane = lane;
      free[lane] = r.end;
    }
    const runEnd = Date.now() - this.t0;
    const firstQueued = Math.min(...rows.map((r) => r.queued));
    const out = join(this.vitest.config.root, '.test-reports');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'vitest-timeline.json'), JSON.stringify({ runEndMs: runEnd, lastFileEndMs: this.lastEnd, firstQueuedMs: firstQueued, files: rows }, null, 1));

    const lines: string[] = [];
    lines.push(`\nvitest timeline (.test-reports/vitest-timeline.json): first file after ${s(firstQueued)} s, last file ended at ${s(this.lastEnd)} s`);
    lines.push('| project | files | tests | environment s | import (collect) s | setup s | tests+hooks s | queued→end s |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
    const projects = [...new Set(rows.map((r) => r.project))];
    for (const p of projects) {
      const rs = rows.filter((r) => r.project === p);
      const sum = (f: (r: Row) => number) => s(rs.reduce((a, r) => a + f(r), 0));
      lines.push(`| ${p} | ${rs.length} | ${rs.reduce((a, r) => a + r.tests, 0)} | ${sum((r) => r.environment)} | ${sum((r) => r.collect)} | ${sum((r) => r.setup)} | ${sum((r) => r.duration)} | ${sum((r) => r.end - r.queued)} |`);
    }
    for (let l = 0; l < maxLanes; l++) {
      const rs = rows.filter((r) => r.lane === l);
      const busy = rs.reduce((a, r) => a + (r.end - r.queued), 0);
      const last = rs.length ? Math.max(...rs.map((r) => r.end)) : 0;
      lines.push(`lane ${l}: ${rs.length} files, busy ${s(busy)} s, ends at ${s(last)} s (idle ${s(this.lastEnd - last)} s before the last file ends); last file ${rs.at(-1)?.file ?? '-'}`);
    }
    // The longest files in the order they were taken, to see which ran alone at the end.
    const tail = rows.filter((r) => r.end > this.lastEnd - 60_000);
    lines.push(`files ending in the last 60 s: ${tail.map((r) => `${r.file} (${s(r.queued)}→${s(r.end)})`).join(', ')}`);
    console.log(lines.join('\n'));
  }
}
