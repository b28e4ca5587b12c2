import { createHash } from 'node:crypto';
import {
  fitResumeContext,
  type ResumeContext,
  type SessionSnapshot,
  type TokenCounter,
} from '../core/index.js';

export interface CompiledContext {
  workflow_id: string;
  snapshot_id: string;
  /** sha256 of the markdown body (first 16 hex digits): what an agent acknowledges. */
  hash: string;
  tokens: number;
  budget: number;
  over_budget: boolean;
  markdown: string;
  json: ResumeContext & { content_hash: string; tokens: number };
}

export const DEFAULT_CONTEXT_BUDGET = 4000;

/** Compiles a snapshot's resume context within a token budget and stamps it with its content hash. */
export class ContextCompiler {
  constructor(
    private readonly count: TokenCounter,
    readonly budget: number = DEFAULT_CONTEXT_BUDGET,
  ) {}

  compile(
    snap: SessionSnapshot,
    sessionNumber: number,
    warnings: string[] = [],
    budget = this.budget,
  ): CompiledContext {
    const header = 40; // the stamp line below, in tokens, kept out of the body's budget
    const fitted = fitResumeContext(snap, sessionNumber, warnings, Math.max(1, budget - header), this.count);
    const hash = createHash('sha256').update(fitted.markdown).digest('hex').slice(0, 16);
    const stamp = `<!-- baton resume context: workflow ${snap.workflow_id}, snapshot ${snap.id}, hash ${hash} -->\n`;
    const tokens = fitted.tokens + this.count(stamp);
    return {
      workflow_id: snap.workflow_id,
      snapshot_id: snap.id,
      hash,
      tokens,
      budget,
      over_budget: fitted.over_budget,
      markdown: stamp + fitted.markdown,
      json: { ...fitted.context, content_hash: hash, tokens },
    };
  }
}
