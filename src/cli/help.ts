import type { Command, Help } from 'commander';
import { COMMANDS, GROUPS, type GroupName } from './command-table.js';
import { editDistance } from '../core/edit-distance.js';

/**
 * `baton --help`: the commands by what they are for (the groups of command-table.ts), each group with one example,
 * then the global options. Subcommands keep commander's own help (`baton <command> --help`).
 */
export function rootHelp(program: Command, helper: Help): string {
  const width = helper.padWidth(program, helper);
  const item = (term: string, description: string) => helper.formatItem(term, width, description, helper);
  const out = [`Usage: ${helper.commandUsage(program)}`, '', helper.commandDescription(program), ''];
  for (const [group, { title, example }] of Object.entries(GROUPS)) {
    const names = Object.keys(COMMANDS).filter((name) => COMMANDS[name]!.group === (group as GroupName));
    const commands = names.flatMap((name) => program.commands.filter((c) => c.name() === name));
    if (commands.length === 0) continue;
    out.push(`${title}:`);
    for (const c of commands) out.push(item(helper.subcommandTerm(c), helper.subcommandDescription(c)));
    out.push(`  e.g. ${example}`, '');
  }
  out.push('Options:');
  for (const o of helper.visibleOptions(program))
    out.push(item(helper.optionTerm(o), helper.optionDescription(o)));
  out.push(
    '',
    "Run 'baton <command> --help' for a command's options. Without -w <id>, a command acts on the one",
    'unfinished workflow of the git worktree you are in.',
    '',
  );
  return out.join('\n');
}

/** The commands nearest a mistyped one: the closest by edit distance (at most 2 edits, or a third of the word), or those it begins. */
export function nearestCommands(word: string, names: string[]): string[] {
  const scored = names.map((name) => ({ name, d: editDistance(word, name) }));
  const limit = Math.max(2, Math.floor(word.length / 3));
  const best = Math.min(...scored.map((s) => s.d));
  const close = best <= limit ? scored.filter((s) => s.d === best).map((s) => s.name) : [];
  const prefixed = word.length >= 3 ? names.filter((n) => n.startsWith(word) && !close.includes(n)) : [];
  return [...close, ...prefixed];
}

const stopWords = "'baton pause' (resumable) or 'baton abandon' (ends the workflow for good)";

/** Words people try for what a command does under another name, answered with that command, not the nearest spelling. */
const meant: Record<string, string> = { stop: stopWords, quit: stopWords, end: stopWords, exit: stopWords };

/** The one line a mistyped command gets (instead of the whole help). */
export function unknownCommandMessage(word: string): string {
  if (Object.hasOwn(meant, word)) return `baton: unknown command '${word}'. Did you mean ${meant[word]}?`;
  const near = nearestCommands(word, Object.keys(COMMANDS));
  const hint = near.length
    ? ` Did you mean ${near.map((n) => `'baton ${n}'`).join(' or ')}?`
    : " 'baton --help' lists the commands.";
  return `baton: unknown command '${word}'.${hint}`;
}
