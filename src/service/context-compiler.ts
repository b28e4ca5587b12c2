import { createHash } from 'node:crypto';
import {
  fitResumeContext,
  pauseWaiting,
  recordedPlace,
  type ContextWorkflow,
  type ResumeContext,
  type SessionSnapshot,
  type TokenCounter,
  type WorkflowState,
} from '../core/index.js';

export interface CompiledContext {
  workflow_id: string;
  snapshot_id: string;
  /** sha256 of the markdown body (first 16 hex digits): what an agent acknowledges. */
  hash: string;
  /** Tokens of the whole markdown, stamp line included: never more than the budget unless over_budget. */
  tokens: number;
  budget: number;
  over_budget: boolean;
  markdown: string;
  json: ResumeContext & { content_hash: string; tokens: number };
}

export const DEFAULT_CONTEXT_BUDGET = 4000;

const stampOf = (snap: SessionSnapshot, hash: string) =>
  `<!-- baton resume context: workflow ${snap.workflow_id}, snapshot ${snap.id}, hash ${hash} -->\n`;

/**
 * Compiles a snapshot's resume context within a token budget and stamps it with its content hash. The budget is
 * a hard limit on everything handed over, the stamp line included.
 */
export class ContextCompiler {
  constructor(
    private readonly count: TokenCounter,
    readonly budget: number = DEFAULT_CONTEXT_BUDGET,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** `workflow`: the snapshot's workflow as it is now (its worktree, its status, the transcripts it imported). */
  compile(
    snap: SessionSnapshot,
    sessionNumber: number,
    o: {
      workflow: WorkflowState & Partial<Pick<ContextWorkflow, 'elsewhere' | 'checkout_elsewhere'>>;
      warnings?: string[];
      budget?: number;
    },
  ): CompiledContext {
    const { warnings = [], budget = this.budget } = o;
    const workflow = {
      ...o.workflow,
      recorded: recordedPlace(o.workflow.imports ?? {}, o.workflow.worktree),
      pause_waiting: pauseWaiting(o.workflow),
      now: this.now().toISOString(),
    };
    let overhead = this.count(stampOf(snap, 'f'.repeat(16)));
    for (;;) {
      const fitted = fitResumeContext(snap, sessionNumber, warnings, budget, this.count, overhead, workflow);
      const hash = createHash('sha256').update(fitted.markdown).digest('hex').slice(0, 16);
      const markdown = stampOf(snap, hash) + fitted.markdown;
      const tokens = this.count(markdown);
      // the real hash may take a token more than the estimate: fit again with the stamp as it is
      if (tokens > budget && !fitted.over_budget && tokens - fitted.tokens > overhead) {
        overhead = tokens - fitted.tokens;
        continue;
      }
      return {
        workflow_id: snap.workflow_id,
        snapshot_id: snap.id,
        hash,
        tokens,
        budget,
        over_budget: fitted.over_budget || tokens > budget,
        markdown,
        json: {
          ...fitted.context,
          over_budget: fitted.over_budget || tokens > budget,
          content_hash: hash,
          tokens,
        },
      };
    }
  }
}
