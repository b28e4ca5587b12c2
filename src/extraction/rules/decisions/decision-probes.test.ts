import { describe, expect, it } from 'vitest';
import { measureProbes, probeFiles, readProbes, runProbe, type Probe } from '../../eval/decision-probes.js';
import { RulesExtractor } from '../rules-extractor.js';

/**
 * The decision rules on sentences of OTHER projects (decision-probes.txt, written for this test, never labelled
 * corpus): the rules were tuned on the labelled sessions, and this set guards that they generalise, the way run-eval
 * guards the labels. Floors are the measured figures; `BATON_PROBES=1` prints every case of decision-probes.txt and
 * what fired (the blind file's cases only with `BATON_PROBES_BLIND=1`: whoever tunes the rules must not read them).
 *
 * decision-probes-blind.txt is a second set, written from other sessions and labelled before the rules ever ran on
 * it: three sessions of round 1 (six more written with them were opened for tuning: round 2 of decision-probes.txt;
 * the six sessions of round 3, measured here once, were opened on 2026-11-28: round 3 there, and so were rounds 4 and
 * 5 after their blind measurement) and round 6 (sessions 34-41, 2026-11-28); the rules were never tuned on it, so its
 * figures are the blind measure (its floors guard against regression only: fitting a rule to one of its cases would
 * make it a tuning set like the first).
 */

const rules = new RulesExtractor();

/** Every case read: so many decisions and non-decisions, ids unique, each with the turn it names. */
function expectWhole(probes: readonly Probe[], decisions: number, others: number) {
  expect(probes.filter((p) => p.decision)).toHaveLength(decisions);
  expect(probes.filter((p) => !p.decision)).toHaveLength(others);
  expect(new Set(probes.map((p) => p.id)).size).toBe(probes.length);
  expect(probes.every((p) => p.turns.length > 0 && p.turns[p.target] !== undefined)).toBe(true);
}
const run = (probe: Probe) => runProbe(rules, probe);
const measure = (probes: readonly Probe[]) => measureProbes(rules, probes);

/** Process steps, looks, status reports and existing designs: none may ever be read as a decision. */
const neverFire = [
  'N01', // Now I'll update the test so it passes.
  'N02', // Let me fix the import.
  'N03', // All 42 tests pass and the build is green.
  'N07', // Let me run the test suite to see if anything else broke.
  'N08', // Let me create the migration file.
  'N09', // I'll add the new route to `router.go`.
  'N12', // Here's a summary of what I changed:
  'N13', // Let me commit this now since all the tests pass.
  'N18', // I'm adding a log line here so we can see which branch is taken.
  'N19', // Let me use grep to find every call site, since ...
  'N20', // I should also add a test for this since it was a regression.
  'N21', // Let me add the new file to the `include` list in tsconfig.json.
  'N22', // I'll add the import in both files.
  'N23', // Let me keep going with the remaining handlers since the pattern is the same.
  'N24', // Let me write the query results to a file so that I can diff them ...
  'N25', // The plan is saved to `docs/plan.md` and ready for your review.
  'N26', // Our approach is documented in ADR-0007 ...
  'N33', // Good, the lint passes now. Let me commit.
  'N34', // I'm going to read through the ingestion module first to understand ...
  'N36', // I'll use the Read tool to view the rest of the file since it was truncated.
  'N39', // Let me add a `console.log` before the fetch so we can see ...
  'N41', // The solution is in place and the CI is green.
  'N45', // "you should run the linter too" / "You're absolutely right. Let me run the linter now."
  'N46', // "let's keep going with the next task on the list" / "Moving on to task 3."
  'N47', // "go with whatever you think is best" / "Sounds good."
  'N48', // "I'll refactor the whole auth module ..." / "no, leave the auth module alone, ..." / "Understood. ..."
  'N49', // "## Approach" then "1. Read ...", "2. Check ...", "3. Look at ..."
  'N50', // "## Architecture: Current Request Flow"
  'N51', // "no, it's in `deploy/values.yaml`, ..." / "You're right, let me look at `deploy/values.yaml`."
  'N53', // "make sure you commit ..." / "Good call! Committing now."
];

describe('decision rules on sentences of other projects', () => {
  const probes = readProbes(probeFiles.tuned);

  it('reads the probe file whole', () => expectWhole(probes, 296, 414));

  it('keeps recall and precision at or above the measured floors', async () => {
    const { found, predicted, rows, recall, precision } = await measure(probes);
    if (process.env.BATON_PROBES)
      console.log(
        `${rows.join('\n')}\nfound ${found} predicted ${predicted} R ${recall.toFixed(2)} P ${precision.toFixed(2)}`,
      );
    // 0.71 / 0.93 through round 5; rounds 7 and 8 (2026-11-29, measured blind once: the rules found 18 of their 94
    // decisions) brought the whole file to R 0.54 P 0.90 (156 / 173 / 287) before any rule looked at them; after the
    // rules read their shapes, R 0.60 P 0.91 (172 / 190 / 287; 175 before a review narrowed them to shapes that do not
    // fire on 'change directory to', 'switch back to', 'point you at'). On 2026-11-29 the shapes of a grid of plain
    // choices (not read from any probe) found one more labelled decision and two second choices in cases labelled with
    // one, which this count holds against precision (R5B16 "I'd add Loki as the aggregator: ...", R7E18 "I left them
    // untouched because you limited this pass to ..."): R 0.60 P 0.90 (173 / 193 / 287). On 2026-11-29 a grid of
    // design reported with what it lets others do ("Added X so users can ...") found three more (R8C05, R8C08, R8C10)
    // and one second choice in a case labelled with one: R 0.62 P 0.89 (177 / 198 / 287). On 2026-11-30 restraint
    // ("I won't touch X", "Don't rename X either — ...") found three second choices in cases labelled with one:
    // R 0.62 P 0.88 (177 / 201 / 287), and one more ("Out of scope: I didn't touch the gate ... because ..."):
    // R 0.62 P 0.88 (177 / 202 / 287); later forms of the same day (a plan set out in a list under its heading):
    // R 0.63 P 0.88 (180 / 205 / 287), and a design stated as what a part will or should do: R 0.63 P 0.88
    // (182 / 207 / 287); round 9 (2026-12-02, nine choices and seven look-alikes written with the forms they guard):
    // R 0.65 P 0.88 (192 / 219 / 296)
    expect(recall).toBeGreaterThanOrEqual(0.6);
    expect(precision).toBeGreaterThanOrEqual(0.87);
  });

  it.each(neverFire)('never reads %s as a decision', async (id) => {
    const probe = probes.find((p) => p.id === id);
    expect(probe?.decision).toBe(false);
    if (probe) expect((await run(probe)).decisions).toEqual([]);
  });
});

describe('decision rules on blind sentences of other projects (never tuned on)', () => {
  const probes = readProbes(probeFiles.blind);

  it('reads the blind probe file whole', () => expectWhole(probes, 78, 93));

  it('keeps blind recall and precision at or above the measured floors', async () => {
    const { found, predicted, labelled, rows, recall, precision } = await measure(probes);
    if (process.env.BATON_PROBES_BLIND) console.log(rows.join('\n'));
    console.log(
      `blind decision probes: P ${precision.toFixed(2)} R ${recall.toFixed(2)} (${found} found / ${predicted} predicted / ${labelled} labelled)`,
    );
    // Measured 2026-11-27, before any rule looked at these cases: P 0.86 R 0.41, 12 found / 14 predicted / 29 labelled
    // (the whole blind set of nine sessions, before six of them were opened for tuning: 14 / 16 / 46). After the
    // rules were tuned on the six opened sessions (decision-probes.txt, round 2), measured once: P 1.00 R 0.66,
    // 19 found / 19 predicted / 29 labelled. Round 3 (sessions 10-15, labelled before the rules ran on them), measured
    // once on 2026-11-27: alone P 0.77 R 0.37, 10 found / 13 predicted / 27 labelled; the whole file then P 0.91
    // R 0.52, 29 found / 32 predicted / 56 labelled. On 2026-11-28 round 3 was opened for tuning (round 3 of
    // decision-probes.txt), leaving sessions 5-7 here: still P 1.00 R 0.66 (19 / 19 / 29) after that tuning.
    // Round 4 (sessions 16-24, written and labelled on 2026-11-28 before the rules ran on them), measured once after
    // that tuning: alone P 0.71 R 0.11, 5 found / 7 predicted / 46 labelled; the whole file P 0.92 R 0.32 (24 / 26 /
    // 75). Round 4 was then opened for tuning (round 4 of decision-probes.txt). Round 5 (sessions 25-33, written and
    // labelled on 2026-11-28 before the rules ran on them), measured once after that tuning: alone P 0.70 R 0.38,
    // 19 found / 27 predicted / 50 labelled; the whole file P 0.83 R 0.48 (38 / 46 / 79). Round 5 was then opened for
    // tuning (round 5 of decision-probes.txt). Round 6 (sessions 34-41, written and labelled on 2026-11-28 before the
    // rules ran on them), measured once after that tuning: alone P 0.73 R 0.39, 19 found / 26 predicted / 49
    // labelled; the whole file (sessions 5-7 and round 6) P 0.84 R 0.49 (38 / 45 / 78). Round 6 stays blind. Measured
    // once on 2026-11-29, after the tuning on rounds 7 and 8: P 0.85 R 0.51 (40 / 47 / 78).
    expect(recall).toBeGreaterThanOrEqual(0.48);
    expect(precision).toBeGreaterThanOrEqual(0.84);
  });
});
