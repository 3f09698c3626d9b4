#!/usr/bin/env node
// npm run machines:report — for every machine: its states and transitions (from the definition),
// the paths the model walks (xstate/graph), each replayed against the real machine with scripted
// actors, the state and transition coverage they reach, and the time it took.
// Runs the same models as `npx vitest run --project machines` (tests/machines/models).
// Also writes .test-reports/machines-report.json: per machine, the states and transitions the walked
// paths reached (keys as tests/machines/support/coverage.ts), which the flow atlas draws on the charts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MODELS } from '../tests/machines/models/index.ts';
import { prepare, replay } from '../tests/machines/support/replay.ts';

const rows = [];
const walked = {};
let failed = false;
const started = performance.now();
for (const model of MODELS) {
  const t0 = performance.now();
  const run = prepare(model);
  let errors = 0;
  for (const path of run.paths) {
    try {
      await replay(model, path, run.recorder);
    } catch (err) {
      errors += 1;
      if (errors === 1) console.error(`${model.machine.id}: ${err.message.split('\n')[0]}`);
    }
  }
  const s = run.recorder.summary();
  const ms = performance.now() - t0;
  const w = (walked[model.machine.id] ??= { file: model.file, walkedStates: new Set(), walkedTransitions: new Set() });
  for (const st of run.recorder.states) w.walkedStates.add(st);
  for (const t of run.recorder.transitions) w.walkedTransitions.add(t);
  if (errors || s.statePercent < 100 || s.transitionPercent < 100) failed = true;
  rows.push({
    machine: model.machine.id,
    file: model.file,
    states: s.states,
    transitions: s.transitions,
    paths: run.paths.length,
    failedPaths: errors,
    stateCoverage: `${s.statePercent}%`,
    transitionCoverage: `${s.transitionPercent}%`,
    ms: Math.round(ms),
    missing: [...s.missingStates, ...s.missingTransitions],
  });
}

const cols = ['machine', 'states', 'transitions', 'paths', 'failedPaths', 'stateCoverage', 'transitionCoverage', 'ms', 'file'];
const width = Object.fromEntries(cols.map((c) => [c, Math.max(c.length, ...rows.map((r) => String(r[c]).length))]));
const line = (r) => cols.map((c) => String(r[c]).padEnd(width[c])).join('  ');
console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
console.log(cols.map((c) => '-'.repeat(width[c])).join('  '));
for (const r of rows) console.log(line(r));
const total = (k) => rows.reduce((n, r) => n + r[k], 0);
console.log(
  `\n${rows.length} machines, ${total('states')} states, ${total('transitions')} transitions, ${total('paths')} paths walked and replayed in ${Math.round(performance.now() - started)} ms`,
);
for (const r of rows) if (r.missing.length) console.log(`\n${r.machine} never reached:\n  ${r.missing.join('\n  ')}`);

const reportDir = join(process.cwd(), '.test-reports');
mkdirSync(reportDir, { recursive: true });
const machines = {};
for (const r of rows) {
  const w = walked[r.machine];
  machines[r.machine] = {
    file: r.file,
    states: r.states,
    transitions: r.transitions,
    paths: r.paths,
    failedPaths: r.failedPaths,
    stateCoverage: r.stateCoverage,
    transitionCoverage: r.transitionCoverage,
    ms: r.ms,
    walkedStates: [...w.walkedStates].sort(),
    walkedTransitions: [...w.walkedTransitions].sort(),
    missing: r.missing,
  };
}
const reportFile = join(reportDir, 'machines-report.json');
writeFileSync(reportFile, `${JSON.stringify({ generatedAt: new Date().toISOString(), failed, machines }, null, 1)}\n`);
console.log(`\nJSON: ${reportFile}`);
if (failed) {
  console.error('\nSome paths failed or coverage is below 100%.');
  process.exitCode = 1;
}
