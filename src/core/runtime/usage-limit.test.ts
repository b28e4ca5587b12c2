import { describe, expect, it } from 'vitest';
import {
  detectUsageLimit,
  isContextFull,
  isLimitNotice,
  resetSaid,
  resetWords,
  stoppedByLimit,
} from './usage-limit.js';
import { wallClockAt } from './wall-clock.js';

const at = (iso: string) => new Date(iso);
const resets = (text: string, now: string, zone?: string) =>
  detectUsageLimit(text, at(now), zone)?.resets_at ?? null;

describe('detectUsageLimit', () => {
  it('knows the limit messages of Claude Code, Codex and the APIs, and nothing else', () => {
    for (const text of [
      'Claude AI usage limit reached|1749924000',
      "You've hit your session limit · resets 3pm (America/Bogota)",
      "You've hit your weekly limit · resets Oct 9, 5am (America/Bogota)",
      "You've hit your limit · resets 7am (UTC)",
      'Weekly limit reached · resets 10am (Asia/Seoul) · /upgrade to Max or turn on /extra-usage',
      "You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing) or try again in 5 days 22 hours 11 minutes.",
      '{"type":"error","error":{"type":"usage_limit_reached","message":"The usage limit has been reached","resets_at":1777936568}}',
      'Error: 429 {"type":"error","error":{"type":"rate_limit_error"}}',
      // a 429 that names the plan's limit is that limit
      "exceeded retry limit, last status: 429 Too Many Requests\nYou've hit your usage limit. Visit https://chatgpt.com/codex/settings/usage to purchase more credits or try again at 3:28 PM.",
    ])
      expect(detectUsageLimit(text, at('2026-01-01T00:00:00Z')), text).not.toBeNull();
    for (const text of [
      null,
      '',
      'Error: Exit code 1',
      'tests failed: 3 of 40',
      'the session limit of 4 files',
      // the API's rate limit per minute passes in a minute or so: an API failure to wait out, no plan's limit
      'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 40,000 input tokens per minute."}}',
      'rate_limit This request would exceed the rate limit for your organization of 50 requests per minute.',
      // Codex's own retries of a 429 ran out: a burst, which Codex says apart from its plan's limit
      'exceeded retry limit, last status: 429 Too Many Requests',
      'exceeded retry limit, last status: 429 Too Many Requests, request id: req_8f2c1a',
    ])
      expect(detectUsageLimit(text, at('2026-01-01T00:00:00Z')), String(text)).toBeNull();
  });

  it('reads a clock time in the zone the message names, today or else tomorrow there', () => {
    // 12:00 UTC is 07:00 in Bogota (UTC-5): 3pm there is 20:00 UTC the same day
    expect(
      resets("You've hit your session limit · resets 3pm (America/Bogota)", '2026-08-10T12:00:00Z'),
    ).toBe('2026-08-10T20:00:00.000Z');
    // 04:32 UTC is 13:32 in Seoul (UTC+9): 10am there has passed, so it is tomorrow's, 01:00 UTC
    expect(resets('Weekly limit reached · resets 10am (Asia/Seoul)', '2025-12-01T04:32:07Z')).toBe(
      '2025-12-02T01:00:00.000Z',
    );
    // minutes, and a summer-time zone: 12:59pm in New York in January is 17:59 UTC, in July 16:59 UTC
    expect(resets('Limit reached · resets 12:59pm (America/New_York)', '2026-01-07T14:12:00Z')).toBe(
      '2026-01-07T17:59:00.000Z',
    );
    expect(resets('Limit reached · resets 12:59pm (America/New_York)', '2026-07-07T14:12:00Z')).toBe(
      '2026-07-07T16:59:00.000Z',
    );
    // the older wording, and a fixed-offset zone (Etc/GMT+5 is UTC-5)
    expect(
      resets('Claude usage limit reached. Your limit will reset at 1pm (Etc/GMT+5).', '2025-06-14T12:00:00Z'),
    ).toBe('2025-06-14T18:00:00.000Z');
    expect(resets("You've hit your limit · resets 12am (UTC)", '2026-03-01T10:00:00Z')).toBe(
      '2026-03-02T00:00:00.000Z',
    );
  });

  it('reads a clock time without a zone in the given zone (UTC by default)', () => {
    const text = "You've hit your limit · resets 10pm";
    expect(resets(text, '2026-04-23T19:00:00Z')).toBe('2026-04-23T22:00:00.000Z');
    // 22:00 in Berlin in April (UTC+2) is 20:00 UTC; at 20:30 UTC it has passed: tomorrow's
    expect(resets(text, '2026-04-23T19:00:00Z', 'Europe/Berlin')).toBe('2026-04-23T20:00:00.000Z');
    expect(resets(text, '2026-04-23T20:30:00Z', 'Europe/Berlin')).toBe('2026-04-24T20:00:00.000Z');
  });

  it("reads a clock time of this minute, or of the last few, as today's: the notice comes after the limit hit", () => {
    // Codex gives the reset to the minute: "12:28 AM" said at 00:28:32 is 32 s ago, not tomorrow's
    const codex = (clock: string) =>
      `You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro) or try again at ${clock}.`;
    expect(resets(codex('12:28 AM'), '2026-11-30T00:28:32Z')).toBe('2026-11-30T00:28:00.000Z');
    expect(resets(codex('12:28 AM'), '2026-11-30T00:28:00Z')).toBe('2026-11-30T00:28:00.000Z');
    // a few minutes late (the agent's clock and this one differ): still today's; past the slack, tomorrow's
    expect(resets(codex('12:28 AM'), '2026-11-30T00:32:59Z')).toBe('2026-11-30T00:28:00.000Z');
    expect(resets(codex('12:28 AM'), '2026-11-30T00:33:01Z')).toBe('2026-12-01T00:28:00.000Z');
    // just after midnight, a time just before it is yesterday's, not tonight's
    expect(resets(codex('11:59 PM'), '2026-11-30T00:01:10Z')).toBe('2026-11-29T23:59:00.000Z');
    // on the machine's clock: 4:05 PM in Los Angeles in July is 23:05 UTC
    expect(resets(codex('4:05 PM'), '2026-07-05T23:05:40Z', 'America/Los_Angeles')).toBe(
      '2026-07-05T23:05:00.000Z',
    );
    // a date without a year: this year's, also a few minutes late, and last year's just after New Year
    expect(resets('Weekly limit reached · resets Jan 12, 10:59am (UTC)', '2026-01-12T10:59:30Z')).toBe(
      '2026-01-12T10:59:00.000Z',
    );
    expect(resets('Weekly limit reached · resets Dec 31, 11:59pm (UTC)', '2027-01-01T00:02:00Z')).toBe(
      '2026-12-31T23:59:00.000Z',
    );
  });

  it('gives no time for a zone this runtime does not know, and keeps its name in what is said', () => {
    const text = 'Limit reached · resets 5pm (Mars/Olympus)';
    // read in another zone it would be a wrong time
    expect(resets(text, '2026-04-23T10:00:00Z')).toBeNull();
    expect(resets(text, '2026-04-23T10:00:00Z', 'Asia/Tokyo')).toBeNull();
    expect(resetSaid(text)).toBe('5pm (Mars/Olympus)');
    expect(stoppedByLimit(text, null)).toBe('stopped by a usage limit, resets at 5pm (Mars/Olympus)');
  });

  it('reads the notices as the agents word them, at the next such time after the notice', () => {
    // Claude Code 2.x in Paris (UTC+2 in May): 3:40pm there is 13:40 UTC; a notice given after it means tomorrow's
    const paris = "You've hit your session limit · resets 3:40pm (Europe/Paris)";
    expect(resets(paris, '2026-05-01T10:00:09Z')).toBe('2026-05-01T13:40:00.000Z');
    expect(resets(paris, '2026-05-01T14:00:00Z')).toBe('2026-05-02T13:40:00.000Z');
    // New York in November (UTC-5): 9pm is 02:00 UTC the next day
    expect(resets("You've hit your limit · resets 9pm (America/New_York)", '2026-11-29T18:10:00Z')).toBe(
      '2026-11-30T02:00:00.000Z',
    );
    // the older Claude Code: the epoch exactly, whatever the time of the notice
    expect(resets('Claude AI usage limit reached|1795986371', '2026-11-29T18:10:00Z')).toBe(
      new Date(1795986371 * 1000).toISOString(),
    );
    // Codex, in the machine's zone (it names none): 8:05 PM in Los Angeles in July (UTC-7) is 03:05 UTC
    const codex =
      "You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/codex/settings/usage to purchase more credits or try again at 8:05 PM.";
    expect(resets(codex, '2026-07-05T20:00:00Z', 'America/Los_Angeles')).toBe('2026-07-06T03:05:00.000Z');
    expect(resetSaid(codex)).toBe('8:05 PM');
    // a limit that resets in a while
    expect(
      resets(
        'Claude usage limit reached. This turn is paused until the 5-hour limit resets in 32m.',
        '2026-09-24T20:48:00Z',
      ),
    ).toBe('2026-09-24T21:20:00.000Z');
    // Claude Code 1.x: a dot for a separator and no zone
    expect(resets('5-hour limit reached ∙ resets 5am', '2025-08-23T03:00:00Z', 'America/New_York')).toBe(
      '2025-08-23T09:00:00.000Z',
    );
  });

  it('says what stopped the session once, with the reset time, or that none was read from the notice', () => {
    // an epoch: the instant in UTC, to the minute
    expect(stoppedByLimit('Claude AI usage limit reached|1796032800', '2026-11-30T14:00:00.000Z')).toBe(
      'stopped by a usage limit, resets at 2026-11-30 14:00 UTC',
    );
    // the notice's own words, as the user read them, and the instant in UTC
    expect(
      stoppedByLimit(
        "You've hit your session limit · resets 3pm (Europe/Berlin)",
        '2026-11-30T14:00:00.000Z',
      ),
    ).toBe('stopped by a usage limit, resets at 3pm (Europe/Berlin), which is 2026-11-30 14:00 UTC');
    expect(
      stoppedByLimit(
        'Claude usage limit reached. This turn is paused until the limit resets in 32m.',
        '2026-09-24T21:20:00.000Z',
      ),
    ).toBe('stopped by a usage limit, resets at 2026-09-24 21:20 UTC');
    // to the second when it has seconds, never before the reset nor after it: 21:20:46 is not said 21:20 nor 21:21
    expect(stoppedByLimit('limit', '2026-09-24T21:20:46.000Z')).toBe(
      'stopped by a usage limit, resets at 2026-09-24 21:20:46 UTC',
    );
    // Claude Code's epoch (13:52:25) asked about at 13:52:43: passed, at a time that reads as passed
    const epochAt = '2026-12-07T13:52:25.000Z';
    expect(resets('Claude AI usage limit reached|1796651545', '2026-12-07T13:40:00Z')).toBe(epochAt);
    expect(
      stoppedByLimit(
        'Claude AI usage limit reached|1796651545',
        epochAt,
        new Date('2026-12-07T13:52:43Z'),
        'claude-code',
      ),
    ).toBe(
      'stopped by a usage limit of Claude Code that has reset since (at 2026-12-07 13:52:25 UTC): Claude Code can go on',
    );
    expect(stoppedByLimit('usage limit reached, try again later', null)).toBe(
      'stopped by a usage limit (no reset time read from its notice)',
    );
    // whose limit, when known: another agent the user goes on with is not stopped by it
    expect(stoppedByLimit('usage limit reached, try again later', null, undefined, 'codex')).toBe(
      'stopped by a usage limit of Codex (no reset time read from its notice)',
    );
    expect(
      stoppedByLimit('limit', '2026-09-24T21:20:00.000Z', new Date('2026-09-25T00:00:00Z'), 'claude-code'),
    ).toBe(
      'stopped by a usage limit of Claude Code that has reset since (at 2026-09-24 21:20 UTC): Claude Code can go on',
    );
    // and the session it stopped, when known, named as the dashboard names sessions
    expect(stoppedByLimit('usage limit reached, try again later', null, undefined, 'codex', 2)).toBe(
      'stopped by a usage limit of Codex, session 2 (no reset time read from its notice)',
    );
    expect(
      stoppedByLimit('limit', '2026-09-24T21:20:00.000Z', new Date('2026-09-25T00:00:00Z'), 'claude-code', 3),
    ).toBe(
      'stopped by a usage limit of Claude Code, session 3, that has reset since (at 2026-09-24 21:20 UTC): Claude Code can go on',
    );
  });

  it("says a reset time one way: the notice's words with the UTC instant, else the instant on the given clock with it", () => {
    const berlin = "You've hit your session limit · resets 3pm (Europe/Berlin)";
    // the notice's own words win over any machine's clock
    expect(resetWords(berlin, '2026-11-30T14:00:00.000Z', 'America/New_York')).toBe(
      '3pm (Europe/Berlin), which is 2026-11-30 14:00 UTC',
    );
    // words on UTC's clock are said once, as the instant with its date
    for (const notice of [
      "You've hit your limit · resets 3pm (UTC)",
      "You've hit your limit · resets 3pm (Etc/UTC)",
    ])
      expect(resetWords(notice, '2026-11-30T15:00:00.000Z', 'Europe/Berlin'), notice).toBe(
        '2026-11-30 15:00 UTC',
      );
    // an instant alone (an epoch, an ISO time): on the reader's clock, readable, with its UTC
    const epoch = 'Claude AI usage limit reached|1796032800';
    expect(resetWords(epoch, '2026-11-29T15:00:00.000Z', 'Europe/Berlin')).toBe(
      '2026-11-29 16:00 (Europe/Berlin), which is 2026-11-29 15:00 UTC',
    );
    // its seconds on both clocks, a fraction of one cut away (never later than the reset)
    expect(resetWords(epoch, '2026-11-29T15:00:25.700Z', 'Europe/Berlin')).toBe(
      '2026-11-29 16:00:25 (Europe/Berlin), which is 2026-11-29 15:00:25 UTC',
    );
    expect(resetWords(null, '2026-07-01T03:30:00.000Z', 'America/Los_Angeles')).toBe(
      '2026-06-30 20:30 (America/Los_Angeles), which is 2026-07-01 03:30 UTC',
    );
    // no zone, a UTC clock, or a zone this runtime does not know: UTC alone, never the raw ISO time
    for (const zone of [null, 'UTC', 'Etc/UTC', 'Mars/Olympus'])
      expect(resetWords(epoch, '2026-11-29T15:00:00.000Z', zone), String(zone)).toBe('2026-11-29 15:00 UTC');
    // words without an instant (a zone this runtime does not know), and nothing at all
    expect(resetWords("You've hit your limit · resets 5pm (Mars/Olympus)", null, 'Europe/Berlin')).toBe(
      '5pm (Mars/Olympus)',
    );
    expect(resetWords('usage limit reached, try again later', null, 'Europe/Berlin')).toBeNull();
  });

  it("tells a limit notice from the agent's words about a limit", () => {
    for (const text of [
      'Claude AI usage limit reached|1795986371',
      "You've hit your session limit · resets 3:40pm (Europe/Paris)",
      "You've hit your limit · resets 9pm (America/New_York)",
      'You’ve hit your weekly limit · resets Oct 9, 5am (America/Bogota)',
      '5-hour limit reached ∙ resets 3pm',
      'Weekly limit reached · resets 10am (Asia/Seoul) · /upgrade to Max or turn on /extra-usage',
      "🖐 You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing), or try again at 8:05 PM.",
      'Claude usage limit reached. Your limit will reset at 1pm (Etc/GMT+5).',
    ])
      expect(isLimitNotice(text), text).toBe(true);
    for (const text of [
      null,
      'Done: the usage limit is now read from the hook, and resets 3pm parses.',
      'I fixed the rate limit handling; 12 tests pass.',
      'Rate limit reached on the GitHub API was the cause: I added exponential backoff with a retry; tests pass.',
      'Memory limit reached was the cause of the crash; the worker now streams the file.',
      `You've hit your limit · resets 9pm. ${'More words. '.repeat(50)}`,
    ])
      expect(isLimitNotice(text), String(text)).toBe(false);
  });

  it("knows a limit by its kind as a StopFailure hook names it ('rate_limit'), with its words after it", () => {
    // the hook reads `error_type` and `error_message` together: the words alone need not name the limit
    expect(resets('rate_limit Please try again in 30 seconds.', '2026-07-01T00:00:00Z')).toBe(
      '2026-07-01T00:00:30.000Z',
    );
    expect(detectUsageLimit('server_error API Error: 529 Overloaded', at('2026-07-01T00:00:00Z'))).toBeNull();
  });

  it('reads durations whose parts run together, with decimals, and an epoch after a spaced bar', () => {
    const now = '2026-07-01T00:00:00Z';
    expect(resets('Rate limit reached. Please try again in 1m12.5s.', now)).toBe('2026-07-01T00:01:12.500Z');
    expect(resets('Rate limit reached. Try again in 2h5m.', now)).toBe('2026-07-01T02:05:00.000Z');
    expect(resets('Claude AI usage limit reached| 1782950400', now)).toBe('2026-07-02T00:00:00.000Z');
  });

  it('reads no time rather than a wrong one from a date it cannot read (another language, a bare number)', () => {
    const now = '2026-07-01T00:00:00Z';
    // Codex in Portuguese: the day (10) is not a clock
    expect(resets("You've hit your usage limit. Try again at 10 de jul. de 2026, 11:52.", now)).toBeNull();
    expect(resets('Usage limit reached, resets at 10', now)).toBeNull();
    expect(detectUsageLimit('Usage limit reached, resets at 10', at(now))).not.toBeNull();
    expect(resets('Usage limit reached, resets at 10:30', now)).toBe('2026-07-01T10:30:00.000Z');
  });

  it('reads a dated reset, in the next year when the date has passed and no year is given', () => {
    expect(
      resets('Weekly limit reached · resets Jan 12, 10:59am (America/New_York)', '2026-01-07T14:12:00Z'),
    ).toBe('2026-01-12T15:59:00.000Z');
    expect(resets('Weekly limit reached · resets Jan 2, 9am (UTC)', '2026-12-30T10:00:00Z')).toBe(
      '2027-01-02T09:00:00.000Z',
    );
    expect(
      resets(
        "You've hit your usage limit. Upgrade to Plus to continue using Codex, or try again at Jul 5th, 2026 8:19 PM.",
        '2026-06-05T10:00:00Z',
        'America/Los_Angeles',
      ),
    ).toBe('2026-07-06T03:19:00.000Z');
  });

  it('reads epochs, ISO times and durations', () => {
    expect(resets('Claude AI usage limit reached|1749924000', '2025-06-14T12:00:00Z')).toBe(
      '2025-06-14T18:00:00.000Z',
    );
    expect(
      resets(
        '{"error":{"type":"usage_limit_reached","resets_at":1777936568,"resets_in_seconds":13872}}',
        '2026-05-04T20:00:00Z',
      ),
    ).toBe('2026-05-04T23:16:08.000Z');
    expect(resets('rate limited: resets_in_seconds: 90', '2026-05-04T20:00:00Z')).toBe(
      '2026-05-04T20:01:30.000Z',
    );
    expect(resets('quota exceeded, try again at 2026-02-01T10:00:00+01:00', '2026-01-31T00:00:00Z')).toBe(
      '2026-02-01T09:00:00.000Z',
    );
    expect(
      resets(
        "You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing) or try again in 5 days 22 hours 11 minutes.",
        '2025-09-19T00:00:00Z',
      ),
    ).toBe('2025-09-24T22:11:00.000Z');
    expect(resets('429 Too Many Requests: retry after 30 seconds', '2026-01-01T00:00:00Z')).toBe(
      '2026-01-01T00:00:30.000Z',
    );
    expect(resets('usage limit reached, try again later', '2026-01-01T00:00:00Z')).toBeNull();
  });
});

describe('wallClockAt', () => {
  it('turns a zone clock time into the instant, a skipped time after the clock change, an unknown zone into null', () => {
    expect(
      new Date(
        wallClockAt({ year: 2026, month: 2, day: 8, hour: 3, minute: 0 }, 'America/New_York')!,
      ).toISOString(),
    ).toBe('2026-03-08T07:00:00.000Z');
    // 2:30 does not exist in New York on 8 March 2026: read as 3:30 EDT
    expect(
      new Date(
        wallClockAt({ year: 2026, month: 2, day: 8, hour: 2, minute: 30 }, 'America/New_York')!,
      ).toISOString(),
    ).toBe('2026-03-08T07:30:00.000Z');
    expect(wallClockAt({ year: 2026, month: 0, day: 1, hour: 0, minute: 0 }, 'Nowhere/Atlantis')).toBeNull();
  });
});

describe('isContextFull', () => {
  it("reads Claude Code's and Codex's words for a context with no room left", () => {
    expect(isContextFull('Prompt is too long')).toBe(true);
    expect(
      isContextFull(
        "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.",
      ),
    ).toBe(true);
    expect(
      isContextFull(
        'Your input exceeds the context window of this model. Please adjust your input and try again.',
      ),
    ).toBe(true);
    expect(isContextFull('Error: something broke')).toBe(false);
    expect(isContextFull(null)).toBe(false);
  });
});
