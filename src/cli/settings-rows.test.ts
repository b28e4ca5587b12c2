import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS, type SettingName } from '../config/setting-table.js';
import { loadSettings, settingReader } from '../config/settings.js';
import { agentSetup } from './agent-setup.js';
import { extractorSettings } from './extractor-settings.js';
import { configWorkspace as setup } from '../../test/helpers/config-workspace.js';

/** The rows of `baton run`'s agent runtime, `baton import`'s extractor and `baton executor serve`: a value for the option, the variable, the worktree file and the home file. */
const rows: [SettingName, string[]][] = [
  ['agent', ['claude-code', 'codex', 'command', 'mine']],
  ['agentBin', ['/a', '/b', '/c', '/d']],
  ['contextWindow', ['1000', '2000', '3000', '4000']],
  ['heartbeat', ['1s', '2s', '3s', '4s']],
  ['stallTimeout', ['1m', '2m', '3m', '0']],
  ['executorUrl', ['http://a:1', 'http://b:2', 'http://c:3', 'http://d:4']],
  ['warnAt', ['0.1', '0.2', '0.3', '0.4']],
  ['pauseAt', ['0.6', '0.7', '0.8', '0.9']],
  ['maxSessions', ['1', '2', '3', '4']],
  ['retryWait', ['1s', '2s', '3s', '4s']],
  ['extractor', ['llm', 'rules', 'llm', 'rules']],
  ['llmUrl', ['http://a/v1/messages', 'http://b', 'http://c', 'http://d']],
  ['llmKind', ['anthropic', 'openai', 'anthropic', 'openai']],
  ['llmModel', ['m1', 'm2', 'm3', 'm4']],
  ['llmTimeout', ['100', '200', '300', '400']],
  ['executorPort', ['7001', '7002', '7003', '7004']],
  ['executorMaxOutput', ['2048', '4096', '8192', '16384']],
  ['executorAllowedHosts', ['a.example', 'b.example', 'c.example', 'd.example']],
];

describe('settings rows of the agent runtime and the import extractor', () => {
  it.each(rows)('%s: option > variable > worktree file > home file > default', (name, [opt, v, wt, hm]) => {
    const d = SETTINGS[name];
    expect(d.key).not.toBeNull();
    const { repo, env, worktreeFile, homeFile } = setup({ [d.key!]: wt }, { [d.key!]: hm });
    const read = (option: string | undefined, e: NodeJS.ProcessEnv, cwd: string | null) =>
      settingReader({ [name]: option }, e, loadSettings({}, e, cwd)).get(name);
    const withVar = { ...env, [d.variable]: v };
    expect(read(opt, withVar, repo)).toEqual({ text: opt, from: `option ${d.option}` });
    expect(read(undefined, withVar, repo)).toEqual({ text: v, from: `variable ${d.variable}` });
    expect(read(undefined, env, repo)).toEqual({ text: wt, from: `${worktreeFile}, key ${d.key}` });
    expect(read(undefined, env, null)).toEqual({ text: hm, from: `${homeFile}, key ${d.key}` });
    expect(read(undefined, { BATON_HOME: join(repo, 'none') }, null)).toEqual({
      text: undefined,
      from: 'default',
    });
  });

  it('baton run takes its agent runtime from the worktree config, a variable overriding one key', () => {
    const { repo, env } = setup(
      {
        agent: 'codex',
        agent_bin: '/usr/bin/true',
        context_window: 50000,
        heartbeat: '3s',
        stall_timeout: '0',
        warn_at: 0.5,
        pause_at: 0.9,
        max_sessions: 4,
      },
      { heartbeat: '9s', max_sessions: 7 },
    );
    const settings = loadSettings({}, env, repo);
    const s = agentSetup({}, { ...env, BATON_CAPACITY_PAUSE: '0.95' }, settings, repo);
    expect(s.agentName).toBe('codex');
    expect(s.profile).toMatchObject({
      name: 'codex',
      adapter: 'codex',
      bin: '/usr/bin/true',
      context_window: 50000,
    });
    expect(s.heartbeatMs).toBe(3000);
    expect(s.stallFor('codex')).toBeNull();
    expect(s.capacity).toEqual({ warnAt: 0.5, pauseAt: 0.95 });
    expect(s.maxSessions).toBe(4);
    const defaults = agentSetup(
      {},
      { BATON_HOME: join(repo, 'none') },
      loadSettings({}, { BATON_HOME: join(repo, 'none') }, null),
      null,
    );
    expect(defaults).toMatchObject({
      agentName: null,
      profile: null,
      heartbeatMs: 10_000,
      maxSessions: 20,
    });
    // a real agent's tools have time limits: hung past 30 minutes; a command agent's script has none: never, unless set
    expect([defaults.stallFor('claude-code'), defaults.stallFor('command')]).toEqual([30 * 60_000, null]);
    expect(defaults.capacity).toEqual({ warnAt: 0.7, pauseAt: 0.85 });
    // a pause set below the default warning, and no warning: the warning comes before it
    const early = agentSetup(
      { pauseAt: '0.5' },
      { BATON_HOME: join(repo, 'none') },
      loadSettings({}, { BATON_HOME: join(repo, 'none') }, null),
      null,
    );
    expect(early.capacity).toEqual({ warnAt: 0.4, pauseAt: 0.5 });
  });

  it('a bad value names the file and key, or the option and variable, it came from', () => {
    const { repo, env, worktreeFile, homeFile } = setup(
      { context_window: 'big' },
      { warn_at: 2, heartbeat: 'soon' },
    );
    const settings = loadSettings({}, env, repo);
    expect(() => agentSetup({ agent: 'codex' }, env, settings, repo)).toThrow(
      `context window "big" must be a whole number of tokens from 1000 to 100000000 (${worktreeFile}, key context_window)`,
    );
    expect(() => agentSetup({}, env, settings, repo)).toThrow(
      `warn-at "2" must be a number from 0.01 to 1 (${homeFile}, key warn_at)`,
    );
    expect(() => agentSetup({ warnAt: '0.5' }, env, settings, repo)).toThrow(
      `heartbeat (${homeFile}, key heartbeat) "soon" is not a duration`,
    );
    expect(() =>
      agentSetup({ warnAt: '0.5', heartbeat: '1s' }, { ...env, BATON_MAX_SESSIONS: '0' }, settings, repo),
    ).toThrow(
      'max sessions "0" must be a whole number from 1 to 10000 (option --max-sessions, variable BATON_MAX_SESSIONS)',
    );
    // a warning at or past the pause would never come
    expect(() => agentSetup({ warnAt: '0.9', pauseAt: '0.5', heartbeat: '1s' }, env, settings, repo)).toThrow(
      'warn-at "0.9" must be below pause-at, 0.5 (option --pause-at): the warning comes before the pause (option --warn-at, variable BATON_CAPACITY_WARN)',
    );
  });

  it('baton import takes its LLM endpoint from the config files, its key only from a variable', () => {
    const { repo, env, worktreeFile } = setup(
      { extractor: 'llm', llm_model: 'small', llm_timeout: 5000, llm_api_key: 'from-a-file' },
      { llm_url: 'http://127.0.0.1:9/v1/chat/completions' },
    );
    const reader = (e: NodeJS.ProcessEnv, o = {}) => settingReader(o, e, loadSettings({}, e, repo));
    expect(extractorSettings(reader(env), env)).toEqual({
      name: 'llm',
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1/chat/completions',
      model: 'small',
      apiKey: undefined,
      timeoutMs: 5000,
    });
    const keyed = { ...env, BATON_LLM_API_KEY: 'k' };
    expect(extractorSettings(reader(keyed), keyed)).toMatchObject({ apiKey: 'k' });
    expect(extractorSettings(reader(env, { extractor: 'rules' }), env)).toEqual({ name: 'rules' });
    const badKind = { ...env, BATON_LLM_KIND: 'grpc' };
    expect(() => extractorSettings(reader(badKind), badKind)).toThrow(
      'LLM kind "grpc" is not one of anthropic, openai (option --llm-kind, variable BATON_LLM_KIND)',
    );
    writeFileSync(worktreeFile, JSON.stringify({ extractor: 'llm', llm_model: 'small', llm_timeout: 5 }));
    expect(() => extractorSettings(reader({ ...env, BATON_LLM_URL: 'http://x/v1/messages' }), env)).toThrow(
      `LLM timeout "5" must be a whole number of milliseconds from 100 to 3600000 (${worktreeFile}, key llm_timeout)`,
    );
  });
});
