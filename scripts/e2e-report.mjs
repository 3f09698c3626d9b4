#!/usr/bin/env node
// npm run e2e:report — the browser twin of machines:report: for every machine, the states and
// transitions (keyed as tests/machines/support/coverage.ts keys them) that the browser tests
// walked in the running app, read from what each test recorded (.test-reports/e2e-coverage/*.json,
// written by tests/e2e/engine/fixtures.ts; run `npx playwright test` first). Fails when a payment
// machine's browser state coverage is below 100%, except for the states tests/e2e/engine/known-gaps.ts
// names with the reason the page cannot reach them (and fails when a named gap is walked after all,
// so that list stays true). Also writes .test-reports/e2e-report.json (per machine the states and
// transitions walked, and the named gaps with their reasons), which the flow atlas draws on the charts.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODELS } from '../tests/machines/models/index.ts';
import { definitionOf } from '../tests/machines/support/coverage.ts';
import { KNOWN_GAPS } from '../tests/e2e/engine/known-gaps.ts';

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
for (const model of MODELS) {
  const id = model.machine.id;
  const def = definitionOf(model.machine);
  const w = walked[id] ?? { states: new Set(), transitions: new Set(), tests: 0 };
  const states = [...def.states].filter((s) => w.states.has(s));
  const transitions = [...def.transitions.keys()].filter((t) => w.transitions.has(t));
  const missingStates = [...def.states].filter((s) => !w.states.has(s));
  const missingTransitions = [...def.transitions.entries()].filter(([k]) => !w.transitions.has(k)).map(([, d]) => d);
  const payment = model.file.startsWith('machines/payments/');
  if (payment) {
    const unknown = missingStates.filter((s) => !KNOWN_GAPS[s]);
    if (unknown.length) problems.push(`${id}: ${unknown.length} state(s) never walked in the browser`);
    for (const s of Object.keys(KNOWN_GAPS)) if (s.startsWith(`${id}.`) && w.states.has(s)) problems.push(`${id}: ${s} is walked now: take it out of tests/e2e/engine/known-gaps.ts`);
  }
  rows.push({
    machine: id,
    payment: payment ? 'yes' : '',
    tests: w.tests,
    states: `${states.length}/${def.states.size}`,
    stateCoverage: `${pct(states.length, def.states.size)}%`,
    transitions: `${transitions.length}/${def.transitions.size}`,
    transitionCoverage: `${pct(transitions.length, def.transitions.size)}%`,
    missingStates,
    missingTransitions,
    walkedStates: [...w.states].sort(),
    walkedTransitions: [...w.transitions].sort(),
  });
}

const cols = ['machine', 'payment', 'tests', 'states', 'stateCoverage', 'transitions', 'transitionCoverage'];
const width = Object.fromEntries(cols.map((c) => [c, Math.max(c.length, ...rows.map((r) => String(r[c]).length))]));
const line = (r) => cols.map((c) => String(r[c]).padEnd(width[c])).join('  ');
console.log(`Browser coverage from ${files.length} browser tests (${dir})\n`);
console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
console.log(cols.map((c) => '-'.repeat(width[c])).join('  '));
for (const r of rows) console.log(line(r));
for (const r of rows) {
  if (!r.payment || (!r.missingStates.length && !r.missingTransitions.length)) continue;
  console.log(`\n${r.machine}:`);
  for (const s of r.missingStates) console.log(`  state never walked: ${s}${KNOWN_GAPS[s] ? `  (known gap: ${KNOWN_GAPS[s]})` : ''}`);
  for (const t of r.missingTransitions) console.log(`  transition never taken: ${t}`);
}
const reportFile = join(process.cwd(), '.test-reports', 'e2e-report.json');
writeFileSync(
  reportFile,
  `${JSON.stringify(
    {
      generatedAt: new Date().toISOString(),
      tests: files.length,
      problems,
      machines: Object.fromEntries(rows.map((r) => [r.machine, { payment: !!r.payment, tests: r.tests, states: r.states, transitions: r.transitions, missingStates: r.missingStates, walkedStates: r.walkedStates, walkedTransitions: r.walkedTransitions }])),
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
  console.error('\nA payment machine is below 100% of its states in the browser.');
  process.exitCode = 1;
}
