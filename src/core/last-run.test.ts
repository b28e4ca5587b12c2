import { describe, expect, it } from 'vitest';
import { lastRunChoice } from './last-run.js';

const docker = { executor: 'docker' as const, docker_image: 'agent:1' };
const remote = { executor: 'remote' as const, executor_url: 'http://host:7430' };

describe('lastRunChoice', () => {
  it('nothing given: the agent, program and executor the workflow last ran with, each said', () => {
    expect(lastRunChoice('wf-1', { agent: 'command', bin: './agent.mjs', executor: docker }, {})).toEqual({
      agent: 'command',
      agentBin: './agent.mjs',
      executor: docker,
      said: [
        'no --agent given: running command, the agent wf-1 last ran with',
        'no --agent-bin given: running ./agent.mjs, the program wf-1 last ran',
        'no --executor given: running on Docker (image agent:1), as wf-1 last ran',
      ],
    });
    expect(lastRunChoice('wf-1', { agent: 'codex', executor: remote }, {})).toEqual({
      agent: 'codex',
      agentBin: undefined,
      executor: remote,
      said: [
        'no --agent given: running codex, the agent wf-1 last ran with',
        'no --executor given: running on the agent host http://host:7430, as wf-1 last ran',
      ],
    });
  });

  it('the same agent given: its last program and executor, unless given; only what is taken is said', () => {
    const last = { agent: 'command', bin: './agent.mjs', executor: docker };
    expect(lastRunChoice('wf-1', last, { agent: 'command' })).toMatchObject({
      agentBin: './agent.mjs',
      executor: docker,
      said: [
        'no --agent-bin given: running ./agent.mjs, the program wf-1 last ran',
        'no --executor given: running on Docker (image agent:1), as wf-1 last ran',
      ],
    });
    expect(
      lastRunChoice('wf-1', last, { agent: 'command', agentBin: './other.mjs', executor: 'local' }),
    ).toEqual({ agent: 'command', agentBin: './other.mjs', executor: null, said: [] });
  });

  it('another agent given takes nothing from the last run; no last run, only what is given', () => {
    const last = { agent: 'command', bin: './agent.mjs', executor: docker };
    expect(lastRunChoice('wf-1', last, { agent: 'claude-code' })).toEqual({
      agent: 'claude-code',
      agentBin: undefined,
      executor: null,
      said: [],
    });
    expect(lastRunChoice('wf-1', null, { agentBin: '/bin/x' })).toEqual({
      agent: null,
      agentBin: '/bin/x',
      executor: null,
      said: [],
    });
    // an empty setting is none
    expect(lastRunChoice('wf-1', last, { agent: '', agentBin: '', executor: '' }).said).toHaveLength(3);
  });
});
