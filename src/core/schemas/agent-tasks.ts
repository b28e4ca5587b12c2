import { z } from 'zod';

/** The agents whose own task list Baton follows. */
export const agentTaskSources = ['claude-code', 'codex'] as const;
export const AgentTaskSource = z.enum(agentTaskSources);
export type AgentTaskSource = z.infer<typeof AgentTaskSource>;

/**
 * One item of an agent's own task list (TodoWrite, TaskCreate, update_plan) as Baton folded it, with the Baton
 * task it maps to. `status` is the agent's word (pending, in_progress, completed; unknown ones are kept as given).
 */
export const AgentTaskItem = z.object({
  /** Stable across calls: `task:<id>` for the agent's numbered tasks, `item:<n>` for whole-list tools. */
  key: z.string(),
  content: z.string(),
  status: z.string(),
  active_form: z.string().nullable(),
  /** The agent's ids of the items this one waits for (TaskUpdate addBlockedBy). */
  blocked_by: z.array(z.string()),
  task_id: z.string().nullable(),
  /**
   * When the agent made the newest call that changed it (its status, words or form; the transcript's time, or the
   * hook's): an older TaskUpdate read later does not set it back. Absent before it was kept, or without a time.
   */
  changed_at: z.string().optional(),
});
export type AgentTaskItem = z.infer<typeof AgentTaskItem>;

/**
 * An agent's current list, the ids of the tool calls already applied (so a call seen twice counts once), and when the
 * agent made the newest of them (a whole list made before it is older than this one: it is not applied).
 */
export const AgentTaskList = z.object({
  items: z.array(AgentTaskItem),
  applied_calls: z.array(z.string()),
  /** The time of the newest call applied (the agent's, as a transcript or a hook gives it); absent before it was kept. */
  synced_at: z.string().optional(),
});
export type AgentTaskList = z.infer<typeof AgentTaskList>;
