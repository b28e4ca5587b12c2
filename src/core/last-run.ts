import type { AgentRuntime, ExecutorChoice } from './schemas/runtime.js';

/** What a run was given (by option, variable or config), each absent when it was not. */
export interface RunGiven {
  agent?: string | undefined;
  agentBin?: string | undefined;
  /** The executor setting's kind (`local`, `remote`, `docker`): its image or URL go with it. */
  executor?: string | undefined;
}

/** The agent, program and executor a run of a workflow uses, and what of them was taken from its last run. */
export interface RunChoice {
  /** The agent given, else the one the workflow last ran with; null when neither. */
  agent: string | null;
  /** The program given, else the one the last run of the same agent was given; undefined: the profile's. */
  agentBin: string | undefined;
  /** The executor the last run of the same agent was given, when none is given; null: the run's own setting. */
  executor: ExecutorChoice | null;
  /** What was taken from the last run, one line each (`no --agent given: running claude-code, ...`). */
  said: string[];
}

/**
 * Which agent, program and executor a run of the workflow `workflowId` uses (`baton run -w`, the runs `baton serve`
 * resumes): the ones given, else, for the agent the workflow last ran with (`last`, recorded by `agent.launched`),
 * what that run was given: its program (`--agent-bin`, needed by a `command` agent) and its executor (`--executor
 * docker --docker-image`, `--executor remote --executor-url`). So a workflow goes on as its last run did, not on this
 * machine instead of its container. Another agent given takes nothing from the last run.
 */
export function lastRunChoice(
  workflowId: string,
  last: Pick<AgentRuntime, 'agent' | 'bin' | 'executor'> | null | undefined,
  given: RunGiven,
): RunChoice {
  const agent = given.agent || last?.agent || null;
  if (!last || agent !== last.agent)
    return { agent, agentBin: given.agentBin || undefined, executor: null, said: [] };
  const said: string[] = [];
  if (!given.agent)
    said.push(`no --agent given: running ${last.agent}, the agent ${workflowId} last ran with`);
  const bin = given.agentBin ? undefined : last.bin;
  if (bin) said.push(`no --agent-bin given: running ${bin}, the program ${workflowId} last ran`);
  const on = given.executor ? null : (last.executor ?? null);
  if (on)
    said.push(
      `no --executor given: running on ${on.executor === 'docker' ? `Docker (image ${on.docker_image})` : `the agent host ${on.executor_url}`}, as ${workflowId} last ran`,
    );
  return { agent, agentBin: given.agentBin || bin, executor: on, said };
}
