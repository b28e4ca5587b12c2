import type { Command } from 'commander';

/** A command's options that take a value (`--home <dir>`, `-w <id>`, ...). */
export function valueOptions(cmd: Command): Set<string | undefined> {
  return new Set(cmd.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]));
}

/**
 * The first word of argv that is neither one of `cmd`'s options nor an option's value: the root's command word, or
 * a command's first operand.
 */
export function commandWord(cmd: Command, argv: string[]): { word: string; at: number } | null {
  const takesValue = valueOptions(cmd);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return argv[i + 1] === undefined ? null : { word: argv[i + 1]!, at: i + 1 };
    if (!a.startsWith('-')) return { word: a, at: i };
    if (takesValue.has(a)) i += 1;
  }
  return null;
}
