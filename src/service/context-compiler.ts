import { createHash } from 'node:crypto';
import {
  budgetedSurfaces,
  fitResumeContext,
  retrievalFooter,
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
  /**
   * sha256 of the briefing (first 16 hex digits), its stamp line and retrieval footer apart: what an agent
   * acknowledges, the same whichever surface handed the briefing over.
   */
  hash: string;
  /**
   * Tokens of the whole markdown, stamp line and footer included: never more than the budget unless over_budget, nor
   * is the briefing with any other budgeted surface's footer (`budgetedSurfaces`), whose room is kept.
   */
  tokens: number;
  budget: number;
  over_budget: boolean;
  /** The stamp line and the briefing, without a retrieval footer: what each surface adds its own footer to. */
  body: string;
  /** The briefing as the CLI hands it over: `body` and the CLI's retrieval footer (`briefingFor` swaps it). */
  markdown: string;
  json: ResumeContext & { content_hash: string; tokens: number };
}

export const DEFAULT_CONTEXT_BUDGET = 4000;

const stampOf = (snap: SessionSnapshot, hash: string) =>
  `<!-- baton resume context: workflow ${snap.workflow_id}, snapshot ${snap.id}, hash ${hash} -->\n`;

/**
 * Compiles a snapshot's resume context within a token budget and stamps it with its content hash. The budget is
 * a hard limit on everything handed over, the stamp line and the retrieval footer included: room is kept for the
 * longest footer of the surfaces a budget counts, so the briefing, and its hash, is the same on each of them.
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
      workflow: WorkflowState &
        Partial<Pick<ContextWorkflow, 'elsewhere' | 'checkout_elsewhere' | 'briefed_agent'>>;
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
    const footers = budgetedSurfaces.map((surface) => retrievalFooter(snap, surface));
    const longest = Math.max(...footers.map((f) => this.count(f)));
    let overhead = this.count(stampOf(snap, 'f'.repeat(16))) + longest;
    for (;;) {
      const fitted = fitResumeContext(snap, sessionNumber, warnings, budget, this.count, overhead, workflow);
      const hash = createHash('sha256').update(fitted.markdown).digest('hex').slice(0, 16);
      const body = stampOf(snap, hash) + fitted.markdown;
      const markdown = body + footers[budgetedSurfaces.indexOf('cli')]!;
      const counts = footers.map((f) => this.count(body + f));
      const tokens = counts[budgetedSurfaces.indexOf('cli')]!;
      const most = Math.max(...counts);
      // the real hash may take a token more than the estimate: fit again with the stamp as it is
      if (most > budget && !fitted.over_budget && most - fitted.tokens > overhead) {
        overhead = most - fitted.tokens;
        continue;
      }
      return {
        workflow_id: snap.workflow_id,
        snapshot_id: snap.id,
        hash,
        tokens,
        budget,
        over_budget: fitted.over_budget || most > budget,
        body,
        markdown,
        json: {
          ...fitted.context,
          over_budget: fitted.over_budget || most > budget,
          content_hash: hash,
          tokens,
        },
      };
    }
  }
}
