/** How the snapshot a hook takes before the agent compacts its context (PreCompact) begins its reason. */
export const COMPACTION_REASON = 'context compaction';

/** Whether a snapshot is the one taken before a compaction (not a `baton run` session's pause on a full context). */
export const beforeCompaction = (snap: { trigger: string; pause_reason: string | null }) =>
  snap.trigger === 'exhaustion' && (snap.pause_reason?.startsWith(COMPACTION_REASON) ?? false);
