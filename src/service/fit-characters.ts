import { CHARS_PER_TOKEN, roughTokens } from '../core/rough-tokens.js';
import type { SessionSnapshot } from '../core/index.js';
import type { CompiledContext } from './context-compiler.js';

/**
 * Where the rest is: Baton's commands and MCP tools, never server paths (an agent session has no server). Codex runs
 * the agent's commands in a sandbox that cannot write Baton's database, so every `baton` command fails there: its
 * agent is pointed at the MCP server first (Codex runs it outside the sandbox), the CLI after it as the way from
 * outside; the body's hints name `baton details <category>`, whose categories the MCP tool takes as they are.
 */
export function retrievalFooter(
  snap: Pick<SessionSnapshot, 'id' | 'workflow_id'>,
  agent: string | null = null,
) {
  const w = `-w ${snap.workflow_id}`;
  if (agent === 'codex')
    return [
      '---',
      `More when needed, from the MCP server \`baton\` (outside your sandbox; workflow_id ${snap.workflow_id}):`,
      'get_resume_context (the whole context); get_details with a category (decisions, errors, history, requests,',
      `summaries, test-state, git-changes: those of \`baton details\`) and snapshot_id ${snap.id}.`,
      `Outside the sandbox: \`baton context ${w}\`, \`baton details ${snap.id} <category> ${w}\`.`,
      '',
    ].join('\n');
  return [
    '---',
    `More when needed: \`baton context ${w}\` prints the whole resume context;`,
    `\`baton details ${snap.id} <decisions|errors|history|requests|summaries|test-state|git-changes> ${w}\` gives every record;`,
    'inside this session, the MCP server `baton` has the tools get_resume_context and get_details.',
    '',
  ].join('\n');
}

/**
 * The compiled context's own short retrieval line ("More: ..."): the footer, which says more, replaces it; and a
 * finished workflow's context shown in another's briefing drops it (its details are named with that workflow's id).
 */
export function withoutOwnFooter(markdown: string): string {
  const at = markdown.lastIndexOf('\n---\nMore: ');
  return at < 0 ? markdown : `${markdown.slice(0, at)}\n`;
}

export interface CharacterFit {
  text: string;
  hash: string;
  tokens: number;
  chars: number;
  cut: boolean;
}

/**
 * Fits a context into `maxChars` characters: compiles with a token budget that shrinks until the text and the
 * footer (the one for `agent`, which reads it) fit (the compiler shrinks the low-priority parts first and keeps the
 * must-keep facts); when even those do not fit, the text is cut with a note saying so. The hash is the compiled
 * context's (what the agent acknowledges).
 */
export function fitToCharacters(
  compile: (budget: number) => CompiledContext,
  snap: Pick<SessionSnapshot, 'id' | 'workflow_id'>,
  maxChars: number,
  agent: string | null = null,
): CharacterFit {
  const footer = retrievalFooter(snap, agent);
  const room = maxChars - footer.length;
  let budget = Math.max(200, Math.floor(room / CHARS_PER_TOKEN));
  let compiled = compile(budget);
  let body = withoutOwnFooter(compiled.markdown);
  for (let i = 0; i < 8 && body.length > room && budget > 200; i++) {
    budget = Math.max(200, Math.floor(((budget * room) / body.length) * 0.95));
    compiled = compile(budget);
    body = withoutOwnFooter(compiled.markdown);
  }
  let cut = false;
  if (body.length > room) {
    const whole = agent === 'codex' ? 'get_resume_context has them' : 'run `baton context`';
    const note = `\n… (cut to fit ${maxChars} characters: even the must-keep facts are longer; ${whole})\n`;
    body = body.slice(0, Math.max(0, room - note.length)) + note;
    cut = true;
  }
  const text = body + footer;
  return { text, hash: compiled.hash, tokens: roughTokens(text), chars: text.length, cut };
}
