/**
 * The browser engine's plan, checked without a browser: the paths tests/e2e/payments.spec.ts walks
 * (tests/e2e/engine/paths.ts over each page map, the same file of them), replayed against the real machines
 * (tests/e2e/engine/cover.ts), take every state and transition of every payment machine but the
 * gaps tests/e2e/engine/known-gaps.ts names with their reasons; both languages are walked; and
 * every label of every path has an action in its page map (a path the map cannot run fails here,
 * not minutes into a browser run).
 */
import { describe, expect, it } from 'vitest';
import { plannedCover } from '../e2e/engine/cover';
import { KNOWN_GAPS } from '../e2e/engine/known-gaps';
import { languageOf } from '../e2e/engine/lang';
import { FLOW_MAPS, PAGE_MAPS } from '../e2e/engine/maps';
import { enginePaths } from '../e2e/engine/paths';
import { mapTitle, unmapped } from '../e2e/engine/runner';
import { definitionOf } from './support/coverage';

describe('the browser engine plans every payment transition', () => {
  // a machine may have more than one map (started another way, another shop): their paths add up
  const byMachine = new Map<string, typeof PAGE_MAPS>();
  for (const map of [...PAGE_MAPS, ...FLOW_MAPS]) byMachine.set(map.id, [...(byMachine.get(map.id) ?? []), map]);
  for (const [id, maps] of byMachine) {
    // the order list's flow over every method is the largest graph: seconds on a loaded machine
    it(id, { timeout: 60_000 }, () => {
      const states = new Set<string>();
      const transitions = new Set<string>();
      for (const map of maps) {
        // the paths payments.spec.ts runs: computed here when the sources changed, and kept for the
        // browser run that follows (paths.ts enginePaths)
        const paths = enginePaths(map.model, mapTitle(map));
        for (const path of paths) expect(unmapped(map, path), path.title).toEqual([]);
        expect(new Set(paths.map((_, i) => languageOf(i))).size).toBe(paths.length > 1 ? 2 : 1);
        const planned = plannedCover(map.model, paths);
        for (const s of planned.states) states.add(s);
        for (const t of planned.transitions) transitions.add(t);
      }
      const def = definitionOf(maps[0]!.model.machine);
      const missing = {
        states: [...def.states].filter((s) => !states.has(s) && !KNOWN_GAPS[s]),
        transitions: [...def.transitions.keys()].filter((t) => !transitions.has(t) && !KNOWN_GAPS[t]),
      };
      expect(missing).toEqual({ states: [], transitions: [] });
      // a gap the plan takes after all is no gap: take it out of known-gaps.ts
      const planned_gaps = Object.keys(KNOWN_GAPS).filter((k) => (k.startsWith(`${id}.`) && states.has(k)) || transitions.has(k));
      expect(planned_gaps).toEqual([]);
    });
  }
});
