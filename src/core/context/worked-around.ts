import { mistyped } from '../edit-distance.js';

/**
 * What got a worked-around error out of the way, as its record says it (the notes the extraction wrote), for the
 * briefing's list of errors: a `[workaround]` that does not say what worked tells the next session nothing.
 */

/**
 * What a command does, as far as its words say: the program of its first step that acts (after the variables it sets;
 * not `cd app`, `echo "== build"` or `export X=1`, which only set the scene) and the plain words that follow it, its
 * subcommand (`gh pr checks`, `go build`, `codemie-codex`): options and paths end it. Null when no step acts (a
 * command cut short after its `cd`).
 */
function verbOf(command: string): string | null {
  const acting = command
    .split(/&&|\|\||;/)
    .map((step) => step.replace(/^(?:\s*\w+=(?:"[^"]*"|'[^']*'|\S*)\s+)*/, '').trim())
    .find((step) => step !== '' && !/^(?:cd|echo|printf|export|set)(?:\s|$)/.test(step));
  const [program, ...rest] = acting?.split(/\s+/) ?? [];
  if (!program || program === '…') return null;
  const sub = rest.slice(0, 2);
  const plain = sub.findIndex((w) => !/^[a-z][\w-]*$/.test(w));
  return [program, ...(plain < 0 ? sub : sub.slice(0, plain))].join(' ');
}

/**
 * The same program and subcommand, one of its words typed right where the failure named it mistyped (`cargo build`
 * after `cargo biuld` and "no such command: `biuld`").
 */
function typedRight(verb: string, later: string, failure: string): boolean {
  const [a, b] = [verb.split(' '), later.split(' ')];
  if (a.length !== b.length) return false;
  const differ = a.flatMap((w, i) => (w === b[i] ? [] : [i]));
  return (
    differ.length === 1 &&
    differ.every((i) => mistyped(a[i] ?? '', b[i] ?? '') && failure.includes(a[i] ?? ''))
  );
}

/** The program a shell said it could not find: "zsh: command not found: python", "sh: pkl: command not found". */
function missingProgram(message: string): string | null {
  const said =
    /\bcommand not found: ([\w.+-]+)/.exec(message) ??
    /(?:^|[\s:])([A-Za-z][\w.+-]*): command not found/.exec(message) ??
    /'([\w.+-]+)' is not recognized as/.exec(message);
  return said?.[1] ?? null;
}

/**
 * The programs a command line runs: the first word of each part, and the program a runner is handed (`mise exec --
 * pkl`, `npx tsc`, `env X=1 node`), each by its file name (`target/debug/hk` is `hk`).
 */
function programsOf(command: string): string[] {
  return command.split(/&&|\|\||[;|]/).flatMap((part) => {
    const words = part
      .trim()
      .replace(/^(?:\w+=\S*\s+)+/, '')
      .split(/\s+/);
    const [first = '', second] = words;
    const handed = words[words.indexOf('--') + 1];
    return [
      first,
      ...(words.includes('--') && handed ? [handed] : []),
      ...(/^(?:npx|uvx|bunx|pnpx|env|sudo|exec|time|nice)$/.test(first) && second ? [second] : []),
    ].map((w) => w.split('/').pop() ?? w);
  });
}

/**
 * Whether a later call does what a failed one did, another way: the same program and subcommand (`codemie-codex
 * --profile ollama` after `codemie-codex --task ...`, `python3 script.py` after `python3 scirpt.py`), or the program the
 * shell could not find (`failure`: what it printed) run another way (`python3` for `python`, `mise exec -- pkl` for
 * `pkl`), or the subcommand the failure named typed right (`cargo build` after `cargo biuld`). Another program or
 * subcommand (`gh pr merge` after `gh pr checks`, `grep -rn python src`) is another call.
 */
export function doesWhatFailed(failed: string, failure: string, later: string): boolean {
  const verb = verbOf(failed);
  const laterVerb = verbOf(later);
  if (verb !== null && laterVerb === verb) return true;
  if (verb !== null && laterVerb !== null && typedRight(verb, laterVerb, failure)) return true;
  const missing = missingProgram(failure);
  const same = (program: string) =>
    missing !== null && program.startsWith(missing) && /^[\d.]*$/.test(program.slice(missing.length));
  return programsOf(later).some(same);
}

/**
 * The call that worked in a worked-around error's place, as its notes name it (last, in backticks), when it does what
 * failed (doesWhatFailed): another call is only the next call that worked, which the notes keep.
 */
function callInstead(e: { error_message: string; resolution_notes: string | null }): string | null {
  const instead = /`([^`]+)`\s*$/.exec(e.resolution_notes ?? '')?.[1];
  const failed = /^`([^`]+)`/.exec(e.error_message)?.[1];
  return instead && failed && doesWhatFailed(failed, e.error_message, instead) ? instead : null;
}

/** What a worked-around error's record says of the way past it (wayAround). */
export type WayAround =
  | { instead: string }
  | { instead_tool: string }
  | { agent_said: string }
  | { next_call: string }
  | { went_on_without: true };

/**
 * What worked in a worked-around error's place, when its record says it: the call that did what failed
 * (callInstead), the other tool that did the same job (its notes name only a tool of another kind that does: "the
 * WebFetch tool succeeded", with its command when it ran one), or the agent's own words on the way it took ("I
 * identified them from the editors table instead"). Short of that, what the record holds: the next call that worked
 * (another program, another subcommand: said as only that, not as what replaced the failed one), or that the agent went
 * on without what failed (a sub-agent that stopped short). Null when it holds nothing of the way (a refusal the agent
 * went past some other way, another call of the same tool whose command is not recorded).
 */
export function wayAround(e: { error_message: string; resolution_notes: string | null }): WayAround | null {
  const notes = e.resolution_notes ?? '';
  const call = callInstead(e);
  if (call) return { instead: call };
  const tool = /^the (\S+) tool succeeded\b/.exec(notes)?.[1];
  const ran = /`([^`]+)`\s*$/.exec(notes)?.[1];
  if (tool) return ran ? { instead: ran } : { instead_tool: tool };
  const said = /^([^]+?) \(went on: transcript line \d+(?: of [^]+)?\)$/.exec(notes.trim())?.[1];
  if (said) return { agent_said: said.replace(/\s+/g, ' ') };
  if (ran && /^a different \S+ call succeeded\b/.test(notes)) return { next_call: ran };
  return /^the agent went on without it\b/.test(notes) ? { went_on_without: true } : null;
}
