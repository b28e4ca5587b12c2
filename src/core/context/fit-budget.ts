import type { SessionSnapshot } from '../schemas/snapshot.js';
import { renderResumeContext } from './render-context.js';
import { compileResumeContext, type ContextLimits, type ResumeContext } from './resume-context.js';

/** Counts tokens the way the agent's model will (a real tokenizer, injected so the core stays pure). */
export type TokenCounter = (text: string) => number;

export interface FittedContext {
  context: ResumeContext;
  markdown: string;
  tokens: number;
  budget: number;
  /** True when even the parts that are never shrunk exceed the budget. */
  over_budget: boolean;
  limits: ContextLimits;
}

/** Generous starting limits: with room in the budget the next session gets more than Amelia's defaults. */
const generous: ContextLimits = {
  completed_tasks: 1000,
  decisions: 1000,
  resolved_errors: 1000,
  feedback_comments: 1000,
  failing_tests: 1000,
  issue_chars: 4000,
  description_chars: 2000,
  side_effects: 1000,
};

/** Lowest priority first: what shrinks before anything else does. */
const shrinkOrder: (keyof ContextLimits)[] = [
  'completed_tasks',
  'resolved_errors',
  'feedback_comments',
  'issue_chars',
  'description_chars',
  'decisions',
  'failing_tests',
  'side_effects',
];

/**
 * Compiles the context and shrinks its lower-priority parts, one halving at a time, until it fits the token
 * budget. Shrunk lists say "... and N more (use retrieval)". Never shrunk: the next task, unresolved errors,
 * pending tasks, the pause reason, the TDD phase and expected failures.
 */
export function fitResumeContext(
  snap: SessionSnapshot,
  sessionNumber: number,
  warnings: string[],
  budget: number,
  count: TokenCounter,
): FittedContext {
  const limits = { ...generous };
  for (;;) {
    const context = compileResumeContext(snap, sessionNumber, warnings, limits);
    const markdown = renderResumeContext(context);
    const tokens = count(markdown);
    if (tokens <= budget) return { context, markdown, tokens, budget, over_budget: false, limits };
    const key = shrinkOrder.find((k) => limits[k] > 0 && shown(context, k) > 0);
    if (!key) return { context, markdown, tokens, budget, over_budget: true, limits };
    limits[key] = Math.min(limits[key], shown(context, key)) >> 1;
  }
}

/** How much of a part the compiled context currently shows. */
function shown(c: ResumeContext, key: keyof ContextLimits): number {
  switch (key) {
    case 'completed_tasks':
      return c.completed_tasks.length;
    case 'decisions':
      return c.decisions.length;
    case 'resolved_errors':
      return c.errors_resolved.length;
    case 'feedback_comments':
      return Math.max(0, ...c.reviewer_feedback.map((f) => f.comments.length));
    case 'failing_tests':
      return c.test_state?.failing.length ?? 0;
    case 'issue_chars':
      return c.issue && c.issue.description.length > 80 ? c.issue.description.length : 0;
    case 'side_effects':
      return c.already_done.length;
    case 'description_chars':
      return c.next.description && c.next.description.length > 80 ? c.next.description.length : 0;
  }
}
