import { describe, expect, it } from 'vitest';
import type { Decision, UserRequest } from '../schemas/records.js';
import { correctionOf } from './corrected-decisions.js';

/** Words of a real session (shared corpus, claude-code/codemie-code/session-624a4a58.jsonl). */
const decision = (description: string, rationale: string, at: string): Decision => ({
  id: `d-${at}`,
  timestamp: at,
  task_id: null,
  decision_type: 'approach',
  description,
  rationale,
  alternatives_considered: null,
});
const request = (text: string, at: string): UserRequest => ({
  id: `r-${at}`,
  timestamp: '2026-12-01T00:00:00.000Z',
  at,
  session_number: 1,
  text,
  source: 'transcript',
});

const noStore = decision(
  "conversationId is the same as sessionId. let's set same value for conversation",
  "If conversationId is the same as sessionId, we don't need to store it at all - just use the existing sessionId directly!",
  '2026-01-07T21:05:00.000Z',
);

describe('a decision the user spoke against later', () => {
  it('a later request opening as a correction and naming what the decision names is put under it', () => {
    const requests = [
      request('update phase 4.1 document', '2026-01-07T21:07:00.000Z'),
      request('no, add conversationId field, but set value from sessionId', '2026-01-07T21:09:00.000Z'),
    ];
    expect(correctionOf(noStore, requests, false)).toBe(
      'no, add conversationId field, but set value from sessionId',
    );
  });

  it('two longer words shared are enough when no identifier is (the parts of a name among them)', () => {
    const hybrid = decision(
      "Since we can't reliably parse history.jsonl, I should implement a hybrid system combining a global claim registry to prevent double-claiming, a process lock file to track active sessions, heuristics based on working directory and timing, and user configuration options.",
      '',
      '2026-01-05T10:00:00.000Z',
    );
    const pushBack = request(
      'not getting about finalizing all sessios, query api, etc. logic is straightforward.\nthere is logic for reading history files\nthere is logic that creates new session and finds correlation\n\nthere is a need to - periodically track changes in history.',
      '2026-01-05T10:05:00.000Z',
    );
    expect(correctionOf(hybrid, [pushBack], false)).toMatch(
      /^not getting about finalizing all sessios, .* track changes in history\.$/,
    );
  });

  it('a sentence further in the request turning it down counts as its opening would', () => {
    // claude-code/codemie-code-2/session-196820da.jsonl: the agent proposed to track every file; the user's reply
    const every = decision(
      'Instead of correlating to ONE file, track ALL session files created during the codemie-claude process',
      '',
      '2026-01-08T20:00:00.000Z',
    );
    const reply = request(
      "it's good, but the issue is that several processes of codemie-claude can be executed from different tabs. it's not valid to track all changes and gather under one session file.",
      '2026-01-08T20:05:00.000Z',
    );
    expect(correctionOf(every, [reply], false)).toBe(reply.text);
    // a sentence turning down something else the decision does not name is not about it
    const other = request(
      "looks fine. it's not needed to rename the tables yet.",
      '2026-01-08T20:05:00.000Z',
    );
    expect(correctionOf(every, [other], false)).toBeNull();
    // past the opening, only a sentence turning it down, and naming it itself: not a reminder that names other things
    const vitest = decision('Use vitest for the parser tests', '', '2026-01-08T20:00:00.000Z');
    const reminder = request(
      "Looks good. Don't forget to commit the parser tests.",
      '2026-01-08T20:05:00.000Z',
    );
    expect(correctionOf(vitest, [reminder], false)).toBeNull();
  });

  it('only from the next two requests after it: a correction further on answers later work', () => {
    const correction = request(
      'no, add conversationId field, but set value from sessionId',
      '2026-01-07T21:30:00.000Z',
    );
    const between = ['update phase 4.1 document', 'show me the json'].map((t, i) =>
      request(t, `2026-01-07T21:1${i}:00.000Z`),
    );
    expect(correctionOf(noStore, [...between, correction], false)).toBeNull();
    expect(correctionOf(noStore, [between[0]!, correction], false)).toBe(correction.text);
    // the requests kept begin after the decision while older ones were left out: which came next is unknown
    expect(correctionOf(noStore, [between[0]!, correction], true)).toBeNull();
    const asked = request('conversationId is the same as sessionId', '2026-01-07T21:04:00.000Z');
    expect(correctionOf(noStore, [asked, between[0]!, correction], true)).toBe(correction.text);
  });

  it('not a request that is no correction, one that names something else, nor one said before the decision', () => {
    expect(
      correctionOf(
        noStore,
        [request('update phase 4.1 document with conversationId', '2026-01-07T21:07:00.000Z')],
        false,
      ),
    ).toBeNull();
    expect(
      correctionOf(noStore, [request('no, run the tests first', '2026-01-07T21:07:00.000Z')], false),
    ).toBeNull();
    expect(
      correctionOf(noStore, [request('no, keep conversationId apart', '2026-01-07T21:00:00.000Z')], false),
    ).toBeNull();
    // one shared longer word is a coincidence, not the same subject
    expect(
      correctionOf(
        noStore,
        [request('no, the existing tests must pass first', '2026-01-07T21:09:00.000Z')],
        false,
      ),
    ).toBeNull();
  });

  it("a rejection opening the user's reply to the agent's latest choice, whatever it names", () => {
    // claude-code/codemie-code/session-624a4a58.jsonl: the agent proposed, the user answered "it's bad idea"
    const dedupe = decision(
      "The solution is straightforward: leverage the API's built-in deduplication instead of trying to track processed sessions.",
      '',
      '2026-01-07T20:00:00.000Z',
    );
    const reply = request("it's bad idea", '2026-01-07T20:01:00.000Z');
    expect(correctionOf(dedupe, [reply], false, [dedupe])).toBe("it's bad idea");
    expect(
      correctionOf(dedupe, [request("it's not jsonl file", '2026-01-07T20:01:00.000Z')], false, [dedupe]),
    ).toBe("it's not jsonl file");
    expect(correctionOf(dedupe, [request('nope', '2026-01-07T20:01:00.000Z')], false, [dedupe])).toBe('nope');
    // a reply that opens turning it down, with its reasons
    const reasons = request(
      "it's bad idea, since entire converation will be proceed every time. performance is crucial.",
      '2026-01-07T20:01:00.000Z',
    );
    expect(correctionOf(dedupe, [reasons], false, [dedupe])).toBe(reasons.text);
    // not when a later choice came before the reply (it answers that one), nor a reply that does not turn it down
    const later = decision('I will add a recordType field.', '', '2026-01-07T20:00:30.000Z');
    expect(correctionOf(dedupe, [reply], false, [dedupe, later])).toBeNull();
    expect(correctionOf(later, [reply], false, [dedupe, later])).toBe("it's bad idea");
    const other = request('please look at how the uploader batches first', '2026-01-07T20:01:00.000Z');
    expect(correctionOf(dedupe, [other], false, [dedupe])).toBeNull();
    // nor a reply after another request (it answers later work)
    const between = request('show me the sync code first', '2026-01-07T20:00:40.000Z');
    expect(correctionOf(dedupe, [between, reply], false, [dedupe])).toBeNull();
  });
});
