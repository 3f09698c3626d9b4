#!/usr/bin/env node
// npm run e2e:report — the browser twin of machines:report: for every machine, the states and
// transitions (keyed by scripts/transition-key.ts, as the machine tests and the engine's per-step
// check key them: the page's trace runs its source) that the browser tests walked in the running
// app, read from what each test recorded (.test-reports/e2e-coverage/*.json,
// written by tests/e2e/engine/fixtures.ts; run `npx playwright test` first). Fails when a payment
// machine (machines/payments/: each method and pay again) has a state or a transition the browser
// did not walk, except those tests/e2e/engine/known-gaps.ts names with the reason (and fails when a
// gap the list says the app cannot do, 'app:', is walked after all, so that list stays true). Prints
// per payment machine the states and transitions walked, what the engine's paths plan to walk
// (tests/e2e/engine/cover.ts, worked out without a browser) and the named gaps; the other machines'
// browser cover is printed as a number to raise. Also writes .test-reports/e2e-report.json (per
// machine the states and transitions walked, and the named gaps with their reasons), which the flow
// atlas draws on the charts.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODELS } from '../tests/machines/models/index.ts';
import { definitionOf } from '../tests/machines/support/coverage.ts';
import { KNOWN_GAPS } from '../tests/e2e/engine/known-gaps.ts';
import { FLOW_MAPS, PAGE_MAPS } from '../tests/e2e/engine/maps/index.ts';
import { enginePaths } from '../tests/e2e/engine/paths.ts';
import { mapTitle } from '../tests/e2e/engine/runner.ts';
import { plannedCover } from '../tests/e2e/engine/cover.ts';

/** What the engine's paths take, per machine id (no browser: replayed against the real machine). */
const planned = {};
for (const map of [...PAGE_MAPS, ...FLOW_MAPS]) {
  // the paths payments.spec.ts ran (kept by the run in node_modules/.cache, computed here when missing)
  const paths = enginePaths(map.model, mapTitle(map));
  const cover = plannedCover(map.model, paths);
  // a machine's maps add up (a second map starts it another way, or in another shop)
  const p = (planned[map.id] ??= { paths: 0, states: new Set(), transitions: new Set() });
  p.paths += paths.length;
  for (const s of cover.states) p.states.add(s);
  for (const t of cover.transitions) p.transitions.add(t);
}

const dir = join(process.cwd(), '.test-reports', 'e2e-coverage');
if (!existsSync(dir)) {
  console.error(`No browser coverage in ${dir}: run the browser tests first (npx playwright test).`);
  process.exit(1);
}
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const walked = {};
for (const f of files) {
  const { coverage } = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  for (const [machine, c] of Object.entries(coverage)) {
    const w = (walked[machine] ??= { states: new Set(), transitions: new Set(), tests: 0 });
    w.tests += 1;
    for (const s of c.states) w.states.add(s);
    for (const t of c.transitions) w.transitions.add(t);
  }
}

const pct = (n, d) => (d === 0 ? 100 : Math.round((1000 * n) / d) / 10);
const rows = [];
let failed = false;
const problems = [];
const notices = [];
for (const model of MODELS) {
  const id = model.machine.id;
  const def = definitionOf(model.machine);
  const w = walked[id] ?? { states: new Set(), transitions: new Set(), tests: 0 };
  const states = [...def.states].filter((s) => w.states.has(s));
  const transitions = [...def.transitions.keys()].filter((t) => w.transitions.has(t));
  const missingStates = [...def.states].filter((s) => !w.states.has(s));
  const missingTransitions = [...def.transitions.entries()].filter(([k]) => !w.transitions.has(k)).map(([, d]) => d);
  const payment = model.file.startsWith('machines/payments/');
  const gapStates = [...def.states].filter((s) => KNOWN_GAPS[s]);
  const gapTransitions = [...def.transitions.keys()].filter((t) => KNOWN_GAPS[t]);
  const plan = planned[id];
  if (payment) {
    const unknownStates = missingStates.filter((s) => !KNOWN_GAPS[s]);
    const unknownTransitions = [...def.transitions.keys()].filter((k) => !w.transitions.has(k) && !KNOWN_GAPS[k]);
    if (unknownStates.length) problems.push(`${id}: ${unknownStates.length} state(s) never walked in the browser and not named in known-gaps.ts`);
    if (unknownTransitions.length) problems.push(`${id}: ${unknownTransitions.length} transition(s) never taken in the browser and not named in known-gaps.ts`);
    for (const k of [...gapStates, ...gapTransitions]) {
      const walkedNow = w.states.has(k) || w.transitions.has(k);
      if (!walkedNow) continue;
      // a gap the app is said not to be able to do was done: the reason is wrong
      if (KNOWN_GAPS[k].startsWith('app:')) problems.push(`${id}: ${k} is walked, yet known-gaps.ts says the app cannot do it: correct that entry`);
      else notices.push(`${id}: ${k} is walked now: take it out of tests/e2e/engine/known-gaps.ts`);
    }
  }
  const toWalkT = def.transitions.size - gapTransitions.filter((k) => !w.transitions.has(k)).length;
  rows.push({
    machine: id,
    payment: payment ? 'yes' : '',
    tests: w.tests,
    states: `${states.length}/${def.states.size}`,
    stateCoverage: `${pct(states.length, def.states.size)}%`,
    transitions: `${transitions.length}/${def.transitions.size}`,
    transitionCoverage: `${pct(transitions.length, def.transitions.size)}%`,
    namedGaps: payment ? String(gapStates.length + gapTransitions.length) : '',
    'walked/toWalk': payment ? `${transitions.length}/${toWalkT} (${pct(transitions.length, toWalkT)}%)` : '',
    planned: plan ? `${plan.paths} paths, ${[...def.states].filter((s) => plan.states.has(s)).length}/${def.states.size} states, ${[...def.transitions.keys()].filter((t) => plan.transitions.has(t)).length}/${def.transitions.size} transitions` : '',
    missingStates,
    missingTransitions,
    plannedMissing: plan ? [...def.transitions.keys()].filter((t) => !plan.transitions.has(t) && !KNOWN_GAPS[t]) : [],
    walkedStates: [...w.states].sort(),
    walkedTransitions: [...w.transitions].sort(),
  });
}

const cols = ['machine', 'payment', 'tests', 'states', 'stateCoverage', 'transitions', 'transitionCoverage', 'namedGaps', 'walked/toWalk', 'planned'];
const width = Object.fromEntries(cols.map((c) => [c, Math.max(c.length, ...rows.map((r) => String(r[c]).length))]));
const line = (r) => cols.map((c) => String(r[c]).padEnd(width[c])).join('  ');
console.log(`Browser coverage from ${files.length} browser tests (${dir})\n`);
console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
console.log(cols.map((c) => '-'.repeat(width[c])).join('  '));
for (const r of rows) console.log(line(r));
for (const r of rows) {
  if (!r.payment) continue;
  const unnamed = r.missingTransitions.filter((d) => !KNOWN_GAPS[d.split(' -> ')[0]]);
  const unnamedStates = r.missingStates.filter((s) => !KNOWN_GAPS[s]);
  if (!unnamed.length && !unnamedStates.length && !r.plannedMissing.length) continue;
  console.log(`\n${r.machine}:`);
  for (const s of unnamedStates) console.log(`  state never walked: ${s}`);
  for (const t of unnamed) console.log(`  transition never taken: ${t}`);
  for (const t of r.plannedMissing) console.log(`  no engine path plans: ${t}`);
}
const gapsByKind = Object.values(KNOWN_GAPS).reduce((n, why) => ((n[why.split(':')[0]] = (n[why.split(':')[0]] ?? 0) + 1), n), {});
console.log(`\nNamed gaps (tests/e2e/engine/known-gaps.ts): ${Object.entries(gapsByKind).map(([k, n]) => `${n} ${k}`).join(', ')}`);
const others = rows.filter((r) => !r.payment);
console.log(`Other machines' browser cover, to raise: ${others.map((r) => `${r.machine} ${r.transitionCoverage}`).join(', ')}`);
if (notices.length) console.log(`\n${notices.join('\n')}`);
const reportFile = join(process.cwd(), '.test-reports', 'e2e-report.json');
writeFileSync(
  reportFile,
  `${JSON.stringify(
    {
      generatedAt: new Date().toISOString(),
      tests: files.length,
      problems,
      notices,
      machines: Object.fromEntries(rows.map((r) => [r.machine, { payment: !!r.payment, tests: r.tests, states: r.states, transitions: r.transitions, planned: r.planned, missingStates: r.missingStates, missingTransitions: r.missingTransitions, walkedStates: r.walkedStates, walkedTransitions: r.walkedTransitions }])),
      knownGaps: KNOWN_GAPS,
    },
    null,
    1,
  )}\n`,
);
console.log(`\nJSON: ${reportFile}`);
if (problems.length) {
  failed = true;
  console.error(`\n${problems.join('\n')}`);
}
if (failed) {
  console.error('\nA payment machine is below 100% of its states and transitions in the browser (named gaps aside).');
  process.exitCode = 1;
}
