import type { Command } from 'commander';
import { homedir } from 'node:os';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BatonError, counted, invalidInput, isTerminal, SET_IDENTITY } from '../../core/index.js';
import * as git from '../../git/git.js';
import { hookLogPath, readHookLogOrWhy } from '../../integrations/hooks/hook-log.js';
import {
  agentFiles,
  detectAgents,
  foundAgents,
  homesOf,
  initAgents,
  type InitAgent,
  type InitScope,
} from '../../integrations/init/agent-files.js';
import {
  codexTrustProblem,
  diagnose,
  hooksAndPlugin,
  hooksTwice,
  isWired,
  subfolderWarning,
  runnable,
  trustCodexHooks,
  setUpStandings,
  wiringOf,
} from '../../integrations/init/doctor.js';
import {
  batonCommand,
  installedCommand,
  commandLine,
  INSTALL_STEPS,
  machinePaths,
  parseCommand,
  PORTABLE_COMMAND,
  type BatonCommand,
} from '../../integrations/init/hook-command.js';
import { standingLookup } from '../../integrations/init/git-exclude.js';
import { init, plainUndoScope, undo, type InitChange } from '../../integrations/init/init.js';
import { emit } from '../output.js';
import type { Runtime } from '../runtime.js';
import { agentLabel } from '../../core/agent-label.js';
import { saveHomeSetting } from '../../config/config-files.js';
import { settingReader, type Settings } from '../../config/settings.js';
import {
  hooksStoreWarning,
  storeInUse,
  storeName,
  storeText,
  type StoreInUse,
} from '../../config/store-in-use.js';
import type { GlobalOptions } from '../runtime.js';
import { folderUnseenByServer } from '../server-folder.js';
import { HttpClient, HUNG_HINT } from '../../client/http-client.js';
import { runsDirFor } from '../../disk/index.js';
import { runsStoreLacks, unfinishedRuns } from '../../disk/registry.js';
import { repositoryWorktrees } from '../../integrations/init/worktrees.js';
import { localService } from '../local-service.js';
import { SettingReader } from '../../config/setting-reader.js';
import { undoLeaves, undoLeavesLines } from '../undo-leaves.js';
import { followingHooks } from '../../integrations/init/following-hooks.js';
import {
  followedElsewhere,
  moveStopped,
  moveWorkflows,
  switchLines,
  unreadLines,
  unreadRefusal,
  workflowsLeftIn,
  type LeftBehind,
} from '../store-switch.js';

/** How long `baton doctor` waits for a Baton server's health check. */
const DOCTOR_HEALTH_CHECK_MS = 3000;

const scopeText: Record<InitScope, string> = {
  local: 'personal to this repository, not committed',
  shared: 'in the repository, to commit for everyone',
  user: 'for every repository of this user',
};

/** What the scopes named on the lines of `changes` mean, in their order ("local: personal to ..., user: ..."). */
const scopesSaid = (changes: readonly InitChange[]) =>
  (['local', 'shared', 'user'] as const)
    .filter((s) => changes.some((c) => c.scope === s))
    .map((s) => `${s}: ${scopeText[s]}`)
    .join('; ');

function agentsOf(flag: string | undefined, root: string, env: NodeJS.ProcessEnv): InitAgent[] {
  if (!flag) return detectAgents(root, env);
  if (flag === 'all') return [...initAgents];
  if ((initAgents as readonly string[]).includes(flag)) return [flag as InitAgent];
  throw invalidInput(`--agent "${flag}" is not one of claude-code, codex, all`);
}

function scopeOf(o: { shared?: boolean; user?: boolean }): InitScope {
  if (o.shared && o.user) throw invalidInput('choose --shared or --user, not both');
  return o.shared ? 'shared' : o.user ? 'user' : 'local';
}

async function rootOf(rt: Runtime, scope: InitScope): Promise<string> {
  const start = await git.gitStart(rt.cwd);
  if (start === null && scope !== 'user')
    throw invalidInput(`${rt.cwd} is not in a git repository: run \`baton init\` in one, or use --user`);
  return git.resolveWorktree(rt.cwd);
}

const show = (root: string, home: string, path: string) => {
  const rel = relative(root, path);
  if (!rel.startsWith('..')) return rel;
  return path.startsWith(home) ? `~${path.slice(home.length)}` : path;
};

export function registerInitCommands(program: Command, rt: Runtime) {
  program
    .command('init')
    .description(
      'set up this repository so Baton follows every Claude Code and Codex session (hooks, MCP server, a CLAUDE.md/AGENTS.md block)',
    )
    .option('--undo', 'remove exactly what `baton init` added')
    .option(
      '--shared',
      'write the settings committed with the repository (.claude/settings.json, .mcp.json, .codex/)',
    )
    .option('--user', "write the user's own settings (~/.claude, ~/.codex): every repository")
    .option(
      '--agent <agent>',
      'claude-code | codex | all (default: whichever is installed or configured, else claude-code)',
    )
    .option(
      '--command <cmd>',
      'how the agent runs Baton (default: baton on the PATH, else this install; committed files: baton)',
    )
    .option(
      '--save-database',
      'keep the database this shell names (--database, BATON_DATABASE_URL) in $BATON_HOME/config.json, so the agent hooks use it whatever their environment',
    )
    .option(
      '--move-workflows',
      "with --save-database: copy this repository's workflows not finished from the store the hooks used until now into it",
    )
    .action(
      async (
        o: {
          undo?: boolean;
          shared?: boolean;
          user?: boolean;
          agent?: string;
          command?: string;
          saveDatabase?: boolean;
          moveWorkflows?: boolean;
        },
        cmd: Command,
      ) => {
        const g = rt.globals(cmd);
        const settings = rt.settings(g);
        const asked = scopeOf(o);
        if (o.moveWorkflows && (!o.saveDatabase || o.undo))
          throw invalidInput(
            '--move-workflows moves workflows into the database --save-database keeps: use them together (`baton init --save-database --move-workflows`)',
          );
        const chosen = o.undo ? null : await hooksStore(rt, g, settings, !!o.saveDatabase);
        const root = await rootOf(rt, asked);
        const scope = o.undo && !o.shared && !o.user ? plainUndoScope(settings.home, root) : asked;
        // the workflows not finished the store the hooks leave holds for this repository: moved, or said with the
        // commands that move them (else the next session start begins a new, empty workflow and nothing says why); a
        // store that cannot be read is said too, not taken for one that holds nothing
        const previous = chosen?.previous ?? null;
        const current = async () => localService(await rt.open(g)).store;
        const behind: LeftBehind = previous
          ? await workflowsLeftIn(previous, repositoryWorktrees(root), current)
          : { left: [], unread: null };
        const left = behind.left;
        const stopped = previous ? moveStopped(previous, !!chosen?.keep) : '';
        if (previous && behind.unread !== null && o.moveWorkflows)
          throw unreadRefusal(previous, behind.unread, !!chosen?.keep, stopped);
        const moved =
          previous && o.moveWorkflows && left.length
            ? await moveWorkflows(
                previous,
                await current(),
                left.map((w) => w.id),
                stopped,
              )
            : [];
        // kept once what was to move is moved: a move that stops keeps nothing, and the hooks stay where the
        // workflows are
        const kept = chosen?.keep?.() ?? null;
        const store = chosen
          ? { ...chosen, store: kept?.store ?? chosen.store, saved: kept?.saved ?? null }
          : null;
        const runs = runsDirFor(root, settings.runsDir);
        const home = rt.env.HOME || homedir();
        const base = { root, scope, env: rt.env, home: settings.home };
        let changes: InitChange[];
        let agents: InitAgent[] = [];
        // without --agent, the agents found here (installed or configured); none found: Claude Code is set up
        const found = o.agent || o.undo ? null : foundAgents(root, rt.env);
        if (o.undo)
          changes = undo({ ...base, ...(o.agent ? { agents: agentsOf(o.agent, root, rt.env) } : {}) });
        else {
          agents = agentsOf(o.agent, root, rt.env);
          const command = o.command ? parseCommand(o.command) : batonCommand(rt.env);
          changes = init({
            ...base,
            agents,
            command,
            committedCommand: o.command ? command : PORTABLE_COMMAND,
            installed: installedCommand(),
          });
        }
        // what git says of the files, asked once they are written (the same answers for each agent)
        const standing = setUpStandings(root, rt.env);
        // the plugin enabled besides: every event would run Baton twice (the plugin is Claude Code's); wired at the
        // root from a subfolder, where a Claude Code started here reads none of it
        const claude =
          !o.undo && agents.includes('claude-code')
            ? wiringOf('claude-code', root, rt.env, false, standing)
            : null;
        const double = claude ? hooksAndPlugin(claude) : null;
        // wired at another scope too (a plain `baton init` here, then --user): every event would run twice
        const twice = o.undo
          ? []
          : agents.map((a) =>
              hooksTwice(a === 'claude-code' && claude ? claude : wiringOf(a, root, rt.env, false, standing)),
            );
        const sub = claude ? subfolderWarning(root, rt.cwd, claude) : null;
        // the hooks' server, when it cannot see this folder, records nothing of it
        const unseen = store ? await folderUnseenByServer(() => rt.open(g), store.store, root) : null;
        // a team database that cannot be used now (down, a login refused, no such database): every hook written here
        // fails until it works, so it is said where the user takes the set-up for done (--save-database refused it)
        const unusable =
          store && !kept && store.store.kind === 'postgres'
            ? await rt.open(g).then(
                () => null,
                (e: Error) =>
                  `${unreachableStore(e, store.store)}: the hooks set up here record nothing until it works (each says so to the user); \`baton doctor\` tells when it does`,
              )
            : null;
        // taken all the same (Baton may be installed after, and a committed file names it for every machine), but said
        const unfound =
          o.command && !o.undo && !runnable(o.command, rt.env) ? commandNotFound(o.command) : null;
        // what an undo leaves as it was (the run folders, the saved database, the workflows in progress): said, with
        // how to remove each, so "removes exactly what it added" is not read as "removes Baton"
        const inUse = storeInUse(
          settingReader({ database: g.database, server: g.server }, rt.env, settings),
          settings.home,
        );
        const leaves = o.undo
          ? await undoLeaves(
              [...new Set([root, ...changes.map((c) => c.worktree)])],
              settings.runsDir,
              settings.home,
              inUse,
              () => rt.open(g),
              // read after the undo: what another scope wired (or the plugin) still follows that worktree
              (worktree) => followingHooks(worktree, rt.env),
            )
          : null;
        const warnings = [unfound, double, ...twice, unseen, sub].filter((w): w is string => w !== null);
        emit(
          rt.io,
          g.json === true,
          {
            root,
            scope,
            agents,
            agents_found: found,
            warnings,
            undo: !!o.undo,
            changes,
            ...(leaves ? { left: leaves } : {}),
            auto_track: settings.autoTrack,
            ...(store
              ? {
                  store: store.store,
                  store_warning: store.warning,
                  store_unusable: unusable,
                  saved_database: store.saved,
                  left_behind: o.moveWorkflows ? [] : left,
                  // the store the hooks left could not be read: why (what it holds was not looked at)
                  previous_unread: behind.unread,
                  moved,
                }
              : {}),
          },
          () => {
            // each line says whose the file is (doctor's words), the heading what those words mean
            const label = (c: InitChange) =>
              `${c.agent ? `${agentLabel(c.agent)} ${c.what}` : c.what} (${c.scope})`;
            const width = Math.max(0, ...changes.map((c) => label(c).length));
            const line = (c: InitChange, indent: string) =>
              `${indent}${label(c).padEnd(width)}  ${show(c.worktree, home, c.path)}: ${c.change}`;
            const lines = changes.filter((c) => c.worktree === root).map((c) => line(c, '  '));
            // the other worktrees of the repository, each under its folder
            const elsewhere = [...new Set(changes.map((c) => c.worktree).filter((w) => w !== root))];
            const others = elsewhere.flatMap((w) => {
              const its = changes.filter((c) => c.worktree === w);
              // set up before and unchanged: one line
              return its.every((c) => c.change.startsWith('unchanged'))
                ? [`  ${w}: set up already, unchanged`]
                : [`  ${w}:`, ...its.map((c) => line(c, '    '))];
            });
            if (o.undo)
              return [
                lines.length || others.length
                  ? `Removed what \`baton init\` added (${scopesSaid(changes)}):`
                  : 'Nothing of `baton init` was found to remove.',
                ...lines,
                ...(others.length ? ['And from the other worktrees of this repository:', ...others] : []),
                ...(lines.length || others.length
                  ? [
                      "(removed: Baton's part taken out of a file that stays; deleted: a file `baton init` created, empty without it)",
                    ]
                  : []),
                ...noteLines(changes),
                ...(leaves ? undoLeavesLines(leaves, inUse, (p) => show(root, home, p)) : []),
              ].join('\n');
            const out = [
              `Baton is set up for ${agents.map(agentLabel).join(' and ')} in ${root} (${scopesSaid(changes)}):`,
              ...lines,
              ...noteLines(changes),
              ...warnings.map((w) => `Warning: ${w.replace(/\.$/, '')}.`),
            ];
            if (found?.length === 0) out.push(noAgentFound(scope, root, home, rt.env));
            if (others.length)
              out.push(
                `And in the other worktrees of this repository (a conversation in each is a workflow of its own):`,
                ...others,
              );
            const committed = o.command ? parseCommand(o.command) : PORTABLE_COMMAND;
            out.push(
              ...commandLines(
                changes.filter((c) => c.worktree === root),
                scope,
                committed,
                !!o.command,
                rt,
              ),
            );
            out.push(
              settings.autoTrack
                ? `Sessions are followed without \`baton create\` (auto_track on). Start ${agents.map(agentLabel).join(' or ')} ${sub ? `in ${root}` : 'here'} as usual; \`baton doctor\` shows what the hooks did.`
                : 'auto_track is off: hooks follow only workflows made with `baton create` (set auto_track to on in baton.config.json or BATON_AUTO_TRACK).',
            );
            if (store) {
              out.push(`Records go to ${storeText(store.store)}.`);
              if (store.saved)
                out.push(
                  `Kept as the \`database\` key of ${store.saved}: the agent hooks use it whatever their environment.`,
                );
              if (unusable) out.push(`Warning: ${unusable}.`);
              if (store.warning) out.push(`Warning: ${store.warning}.`);
              if (store.previous && behind.unread !== null)
                out.push(
                  ...unreadLines(
                    store.previous,
                    behind.unread,
                    store.store,
                    settings.home,
                    existsSync(runs) ? { worktree: root, dir: runs } : null,
                  ),
                );
              else if (store.previous)
                out.push(...switchLines(store.previous, store.store, left, moved, settings.home));
            }
            if (scope === 'local')
              out.push(
                'A worktree added later (`git worktree add`) is not set up until `baton init` runs again, in any worktree; a session start in a worktree set up, and `baton doctor`, say when one is missing.',
              );
            if (agents.includes('codex')) {
              // the project's hooks do nothing until Codex trusts the folder: said here, where the user looks first
              const untrusted =
                scope === 'user'
                  ? null
                  : codexTrustProblem(root, rt.env, agentFiles('codex', scope, root, homesOf(rt.env)).hooks);
              if (untrusted) out.push(`${untrusted}.`);
              // new or changed hooks run only once trusted, one by one: Baton cannot trust them for the user
              out.push(
                `${scope === 'user' || untrusted ? '' : 'Codex trusts this folder. '}Codex runs Baton's hooks only once you trust them (new or changed ones need it again): ${trustCodexHooks}; \`baton doctor\` says whether Codex has.`,
              );
            }
            return out.join('\n');
          },
        );
      },
    );

  program
    .command('doctor')
    .description('what is wired for this repository, what is missing, and the last result of each hook')
    .action(async (_o: unknown, cmd: Command) => {
      const g = rt.globals(cmd);
      const print = (v: unknown, h: () => string) => emit(rt.io, g.json === true, v, h);
      const settings = rt.settings(g);
      const start = await git.gitStart(rt.cwd);
      const root = await git.resolveWorktree(rt.cwd);
      const logPath = hookLogPath(settings.home, root);
      const { log, unreadable } = readHookLogOrWhy(logPath, root);
      const inUse = detectAgents(root, rt.env);
      const found = diagnose(
        root,
        rt.env,
        log.events,
        inUse,
        settings.home,
        start !== null,
        log.undone_at ?? null,
      );
      const lastHooks = Object.values(log.events).sort((a, b) => String(b.at).localeCompare(String(a.at)));
      const store = storeInUse(
        settingReader({ database: g.database, server: g.server }, rt.env, settings),
        settings.home,
      );
      // read as empty, the log would say no hook ran: what the hooks did here is unknown, and why is said
      if (unreadable)
        found.problems.push(
          `cannot read the hook log ${logPath} (${unreadable}), so what the hooks here last did is unknown: the next hook writes it anew if it can (remove it to start afresh now; one another user owns, as after a \`sudo\`, give back with \`chown\`)`,
        );
      // a team store this shell alone names: the agent's hooks may be writing elsewhere (said where they are wired)
      const warning = hooksStoreWarning(store, settings.home);
      if (warning && found.agents.some(isWired)) found.notes.push(warning);
      // The store that cannot be opened is what the hooks failed on: said here with what to do, not thrown.
      const all = await rt
        .open(g)
        .then(async (client) => {
          // a server that takes connections and never answers (stopped, hung) is said, not waited for
          if (client instanceof HttpClient && (await client.health(DOCTOR_HEALTH_CHECK_MS)) === 'silent')
            throw new BatonError(
              'unavailable',
              `it did not answer its health check within ${DOCTOR_HEALTH_CHECK_MS / 1000} s: ${HUNG_HINT}`,
            );
          return client.list({ worktree: root });
        })
        .catch((e: Error) => {
          found.problems.unshift(unreachableStore(e, store));
          return null;
        });
      // run from a subfolder: a Claude Code started here would read none of the root's settings
      for (const a of found.agents) {
        const sub = subfolderWarning(root, rt.cwd, a);
        if (sub) found.notes.push(sub);
      }
      // a server that answers may still not have this folder: then every hook here fails
      const unseen = all ? await folderUnseenByServer(() => rt.open(g), store, root) : null;
      if (unseen) found.problems.unshift(unseen);
      const workflows = all?.filter((w) => !isTerminal(w.status)) ?? null;
      const hooked = found.agents.some(isWired);
      // the workflows the hooks here followed that the store in use does not hold: left in the store used before
      const behind = all
        ? await followedElsewhere(
            await rt.open(g),
            Object.values(log.transcripts)
              .map((t) => t.workflow_id)
              .filter((id) => !all.some((w) => w.id === id)),
            store,
            settings.home,
            root,
            runsDirFor(root, settings.runsDir),
            hooked && settings.autoTrack,
            (workflows ?? []).map((w) => w.id),
          )
        : [];
      found.notes.push(...behind.map((b) => b.note));
      // unfinished workflows this worktree's run folders hold that the store lacks, and no hook log remembers (Baton's
      // home emptied or replaced): the next session start would begin afresh beside them
      const runsDir = runsDirFor(root, settings.runsDir);
      const lost = all
        ? unfinishedRuns(runsDir).filter(
            (r) => !all.some((w) => w.id === r.id) && !behind.some((b) => b.workflow.id === r.id),
          )
        : [];
      if (lost.length)
        found.problems.push(
          `${runsStoreLacks(lost, runsDir, root, `${storeName(store)}, the store in use,`)}, and the next agent session here then goes on with them`,
        );
      // outside a repository no session start creates one (the problem above says what does); one left in another
      // store is said above, with what the next session start does
      if (all && workflows && !workflows.length && start !== null && !behind.length) {
        // one that ended is not "none yet": named, so its status is one command away
        const ended = all.at(0);
        const none = ended
          ? `no open workflow here (the latest, ${ended.id}, is ${ended.status}: \`baton status -w ${ended.id}\`)`
          : 'no workflow here yet';
        // a session start creates one only through the hooks: without them, that is not promised
        found.notes.push(
          !settings.autoTrack
            ? `${none}, and auto_track is off: \`baton create\` starts one`
            : hooked
              ? `${none}: the next agent session start creates one (auto_track on)`
              : `${none}: \`baton create\` starts one (with the hooks \`baton init\` wires, the next agent session start does)`,
        );
      }
      // whose the workflows made here are (the identity recorded as their owner): without one, on a store a team
      // shares, this clone's work cannot be told from a teammate's at the same path
      const identity = start !== null ? await git.owner(root) : null;
      if (start !== null && identity === null)
        found.notes.push(
          `no git identity here: Baton records no owner for the workflows made here, and cannot tell them from a teammate's on a shared store; ${SET_IDENTITY}`,
        );
      const report = {
        ok: found.problems.length === 0,
        root,
        identity,
        settings: {
          auto_track: settings.autoTrack,
          checkpoint_interval_ms: settings.checkpointIntervalMs,
          inject_max_chars: settings.injectMaxChars,
          database: store.kind === 'server' ? null : store.place,
        },
        store,
        agents: found.agents,
        workflows: (workflows ?? []).map((w) => ({
          id: w.id,
          title: w.title,
          status: w.status,
          sessions: w.session_count,
        })),
        left_behind: behind.map((b) => b.workflow),
        // newest first, each with its agent and event (Claude Code and Codex each keep their own)
        last_hooks: lastHooks,
        problems: found.problems,
        notes: found.notes,
      };
      print(report, () => {
        const out = [`Baton in ${root}`, `store: ${storeText(store)}`];
        if (identity)
          out.push(`identity: ${identity} (git's author email here: the owner recorded on its workflows)`);
        for (const a of found.agents) {
          out.push(`${agentLabel(a.agent)}:`);
          for (const h of a.hooks)
            out.push(
              `  hooks (${h.scopes.join(', ')})  ${h.path}: ${h.events.join(', ')}${h.committed ? '  [committed]' : ''}${h.runnable ? '' : '  [command not found]'}`,
            );
          for (const p of a.plugin) out.push(`  plugin  ${p}`);
          for (const m of a.mcp)
            out.push(`  mcp (${m.scope})  ${m.path}: ${m.command}${m.committed ? '  [committed]' : ''}`);
          for (const i of a.instructions) out.push(`  block  ${i}`);
          if (!a.hooks.length && !a.plugin.length && !a.mcp.length) out.push('  not wired');
        }
        out.push(
          `auto_track ${settings.autoTrack ? 'on' : 'off'}, checkpoints at most every ${Math.round(settings.checkpointIntervalMs / 60000)} min, context injected up to ${settings.injectMaxChars} characters`,
        );
        for (const w of workflows ?? [])
          out.push(`workflow ${w.id}  ${w.status}  "${w.title}"  ${counted(w.session_count, 'session')}`);
        out.push(
          lastHooks.length
            ? 'Last hooks:'
            : unreadable
              ? 'Last hooks: unknown (the problem below says why)'
              : 'No hook has run here yet.',
        );
        for (const r of lastHooks)
          out.push(
            `  ${agentLabel(r.agent).padEnd(11)} ${r.event.padEnd(17)} ${r.at}  ${r.outcome.padEnd(8)} ${r.ms} ms  ${r.note}`,
          );
        for (const n of found.notes) out.push(`note: ${n}`);
        for (const p of found.problems) out.push(`problem: ${p}`);
        if (!found.problems.length) out.push('ok');
        return out.join('\n');
      });
      // The report is printed either way; problems make the exit code 1 (scripts can check it).
      if (found.problems.length) rt.exitCode = 1;
    });
}

/**
 * How the files just set up run Baton, and what that asks of a teammate: the files committed with the repository
 * name `committed` (`baton`, never this machine's install, unless --command chose); the others are this machine's.
 */
function commandLines(
  changes: InitChange[],
  scope: InitScope,
  committed: BatonCommand,
  chosen: boolean,
  rt: Runtime,
): string[] {
  const hooks = changes.filter((c) => c.what === 'hooks' && c.command);
  const byCommand = [...new Set(hooks.map((c) => c.command))];
  const agentsOf = (cmd: string | undefined) =>
    hooks
      .filter((c) => c.command === cmd)
      .map((c) => agentLabel(c.agent!))
      .join(', ');
  const out = [
    `Hooks run: ${byCommand.map((cmd) => (byCommand.length === 1 ? cmd : `${cmd} (${agentsOf(cmd)})`)).join(', ')}${hooks.some((c) => c.agent === 'codex') ? ' (with --agent codex for Codex)' : ''}`,
  ];
  const named = (list: InitChange[]) => [...new Set(list.map((c) => relative(c.worktree, c.path)))];
  const shared = changes.filter((c) => c.committed);
  if (shared.length) {
    const root = shared[0]!.worktree;
    const files = named(shared);
    const cli = commandLine(committed, []);
    const paths = machinePaths(committed);
    // the files, as the subject of a verb: "It names" / "They name"
    const they = (verb: string) => (files.length === 1 ? `It ${verb}s` : `They ${verb}`);
    out.push(
      chosen && paths.length
        ? `Committed with the repository: ${files.join(', ')}. ${they('run')} \`${cli}\` (--command), and ${paths.join(' ')} ${paths.length === 1 ? 'is a path' : 'are paths'} of this machine: a teammate's clone runs it only where Baton is installed at the same place (without --command, \`baton\` from each machine's PATH).`
        : `Committed with the repository: ${files.join(', ')}. ${they('name')} \`${cli}\`, from each machine's PATH, not an install of this machine: a teammate installs Baton ${INSTALL_STEPS}${shared.some((c) => c.what === 'hooks') ? ' and their sessions are followed; without it, a session start there says so and records nothing' : ''}.`,
    );
    // a committed file git ignores (a default `baton init` before excluded it) is not committed until that line goes
    const standing = standingLookup(
      root,
      files.map((f) => join(root, f)),
    );
    const ignored = files.filter((f) => standing(join(root, f)) === 'ignored');
    if (ignored.length)
      out.push(
        `git ignores ${ignored.join(', ')} (a line of .git/info/exclude or a .gitignore): not committed until that line goes.`,
      );
    // (a --command not found is a warning of its own)
    if (!chosen && !runnable(cli, rt.env))
      out.push(
        `\`${committed.program}\` is not on this machine's PATH, so what the committed files run does not run here either: install Baton ${INSTALL_STEPS}.`,
      );
  }
  const own = named(
    changes.filter((c) => c.command && !c.committed && !relative(c.worktree, c.path).startsWith('..')),
  );
  if (scope === 'local' && own.length)
    out.push(
      `${own.join(', ')} ${own.length === 1 ? 'is' : 'are'} this machine's own (not committed): a teammate runs \`baton init\` in their clone${shared.length ? '' : ' (or use --shared for settings committed for everyone)'}.`,
    );
  return out;
}

/** What `baton init` says when what `--command` runs is not found here (not on the PATH, no such file). */
const commandNotFound = (command: string) =>
  `--command runs \`${command.trim()}\`, which is not found on this machine (not on the PATH, no such file): the hooks written here record nothing until it is; install Baton ${INSTALL_STEPS}, or give --command the path of an install (\`node /path/to/baton/bin/baton.js\`)`;

/** What `baton init` says when neither agent is installed or configured here: what it chose, and the other's command. */
function noAgentFound(scope: InitScope, root: string, home: string, env: NodeJS.ProcessEnv): string {
  const h = homesOf(env);
  const again = `baton init${scope === 'local' ? '' : ` --${scope}`} --agent`;
  return `Neither Claude Code nor Codex was found (no \`claude\` or \`codex\` on the PATH, no ${show(root, home, h.claudeDir)} or ${show(root, home, h.codexDir)}, no .claude or .codex in this repository), so Baton set up Claude Code, the default when neither is found. For Codex, run \`${again} codex\` (for both, \`${again} all\`).`;
}

/**
 * The store the agent hooks will use, said by `baton init`: a team database or server this shell alone names is
 * warned about (an agent started without it records in the local SQLite); `--save-database` keeps the database in
 * $BATON_HOME/config.json instead.
 */
async function hooksStore(
  rt: Runtime,
  g: GlobalOptions,
  settings: Settings,
  save: boolean,
): Promise<{
  store: StoreInUse;
  warning: string | null;
  previous: string | null;
  /** Keeps the database in $BATON_HOME/config.json: called once the workflows to move are moved (none: kept already). */
  keep: (() => { store: StoreInUse; saved: string }) | null;
}> {
  const reader = settingReader({ database: g.database, server: g.server }, rt.env, settings);
  const store = storeInUse(reader, settings.home);
  if (!save) return { store, warning: hooksStoreWarning(store, settings.home), previous: null, keep: null };
  if (store.kind === 'server')
    throw invalidInput(
      `--save-database keeps a database, but this shell names the server ${store.place} (${store.from}): a server cannot be kept in a config file; start the agent with BATON_URL (and BATON_TOKEN) in its environment, or save the server's database instead (\`baton init --save-database --database postgres://...\`)`,
    );
  const named = /^(option|variable) /.test(store.from);
  // this shell names the database the config file already keeps: nothing to save, the hooks use it; what the default
  // SQLite file still holds is said again (and moved with --move-workflows)
  if (named && !store.thisShellOnly) {
    const sqlite = join(settings.home, 'baton.db');
    return { store, warning: null, previous: store.place === sqlite ? null : sqlite, keep: null };
  }
  if (!store.thisShellOnly)
    throw invalidInput(
      `--save-database keeps a database this shell names (--database or BATON_DATABASE_URL), but none is named: the hooks already use ${storeText(store)}`,
    );
  // a database that cannot be used (a wrong password, a server down) is not kept: said, nothing saved
  await rt.open(g).catch((e: unknown) => {
    const err = e as Error & { code?: string };
    throw new BatonError(
      BatonError.isInstance(e) ? e.code : 'unavailable',
      `${err.message.split('\n')[0]}; --save-database kept nothing (it keeps a database that works)`,
      {},
      { cause: e },
    );
  });
  // the database the hooks used until now (by the config files, else the default): what it holds stays there
  const before = store.otherwise?.kind === 'server' ? null : new SettingReader({}, {}, reader.files);
  const previous = before ? (before.text('database') ?? join(settings.home, 'baton.db')) : null;
  const keep = () => {
    const saved = saveHomeSetting(settings.home, 'database', reader.text('database')!);
    return { store: { ...store, from: `${saved}, key database`, thisShellOnly: false }, saved };
  };
  return { store, warning: null, previous, keep };
}

/** Why Baton's store cannot be reached, and what to do about it. */
function unreachableStore(e: Error, store: StoreInUse): string {
  const why = e.message.split('\n')[0] ?? String(e);
  if (store.kind === 'server') return `the Baton server ${store.place} cannot be used: ${why}`;
  // PostgreSQL's refusals each say what to check (the server, the login, the database, the rights): only where the URL
  // in use is set is added
  if (store.kind === 'postgres') return `${why} (the URL in use is set by ${store.from})`;
  // a file this process may not write, or a damaged one: its message already says what to do
  if ((e as { details?: { cause?: unknown } }).details?.cause) return why;
  return `${why}: make that folder writable, or point BATON_HOME (or --home, or BATON_DATABASE_URL) at one you can write`;
}

/** The notes of the changes, each once. */
const noteLines = (changes: readonly InitChange[]) =>
  [...new Set(changes.flatMap((c) => (c.note ? [c.note] : [])))].map((n) => `Note: ${n}.`);
