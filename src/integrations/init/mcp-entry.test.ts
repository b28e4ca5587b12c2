import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/git-repo.js';
import type { BatonCommand } from './hook-command.js';
import { addMcp, CODEX_MCP_FORWARDS, findMcp, mcpRefusal, removeMcp, type McpPlace } from './mcp-entry.js';

const baton: BatonCommand = { program: '/usr/local/bin/baton', args: [] };

/** A Codex config.toml holding `text` (none: null), as the place init writes Baton's server to. */
function codexToml(text: string | null): McpPlace & { path: string } {
  const path = join(tempDir('baton-codex-'), 'config.toml');
  if (text !== null) writeFileSync(path, text);
  return { kind: 'codex-toml', path };
}

const read = (place: { path: string }) => readFileSync(place.path, 'utf8');
/** The file as Codex reads it: a TOML parser (throws when it does not parse). */
const parsed = (place: { path: string }) => parse(read(place));

describe("Baton's MCP server in Codex's config.toml", () => {
  it('is added, updated, found and taken out again, the file valid TOML at every step and as it was at the end', () => {
    const before = '# my settings\nmodel = "gpt-5.5"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n';
    const place = codexToml(before);
    expect(addMcp(place, baton)).toBe('added');
    expect(parsed(place)).toMatchObject({
      model: 'gpt-5.5',
      mcp_servers: {
        docs: { command: 'docs-mcp' },
        baton: {
          command: '/usr/local/bin/baton',
          args: ['mcp', '--agent', 'codex'],
          env_vars: CODEX_MCP_FORWARDS,
        },
      },
    });
    // Codex gives an MCP server a few variables only: where the records are is forwarded by name
    expect(CODEX_MCP_FORWARDS).toEqual(
      expect.arrayContaining(['BATON_HOME', 'BATON_DATABASE_URL', 'BATON_URL']),
    );
    // the user's lines are kept as written, comments too
    expect(read(place).startsWith(before)).toBe(true);
    // it names the agent: what Codex does through the tools is recorded as Codex's
    expect(findMcp(place)).toEqual({
      command: '/usr/local/bin/baton',
      args: ['mcp', '--agent', 'codex'],
      forwards: CODEX_MCP_FORWARDS,
      names_agent: true,
    });
    expect(addMcp(place, baton)).toBe('unchanged');
    expect(addMcp(place, { program: 'node', args: ['/opt/baton/bin/baton.js'] })).toBe('updated');
    expect(parsed(place)).toMatchObject({
      mcp_servers: {
        baton: { command: 'node', args: ['/opt/baton/bin/baton.js', 'mcp', '--agent', 'codex'] },
      },
    });
    expect(removeMcp(place)).toBe('removed');
    expect(read(place)).toBe(before);
    expect(removeMcp(place)).toBe('absent');
  });

  it('is added to a file that is not there yet', () => {
    const place = codexToml(null);
    expect(addMcp(place, baton)).toBe('added');
    expect(parsed(place)).toEqual({
      mcp_servers: {
        baton: {
          command: '/usr/local/bin/baton',
          args: ['mcp', '--agent', 'codex'],
          env_vars: CODEX_MCP_FORWARDS,
        },
      },
    });
  });

  it("is never added over a `baton` server of the user's own, whatever its form: the file is left as it was", () => {
    const forms = [
      // the tester's: a quoted key in the table header
      'model = "gpt-5.5"\n[mcp_servers."baton"]\ncommand = "/opt/baton"\nargs = ["mcp"]\n',
      '[mcp_servers.\'baton\']\ncommand = "/opt/baton"\nargs = ["mcp"]\n',
      '[ mcp_servers . baton ]\ncommand = "/opt/baton"\nargs = ["mcp"]\n',
      // an inline table
      '[mcp_servers]\nbaton = { command = "/opt/baton", args = ["mcp"] }\n',
      'mcp_servers = { baton = { command = "/opt/baton", args = ["mcp"] } }\n',
      // dotted keys, at the top and under [mcp_servers]
      'mcp_servers.baton.command = "/opt/baton"\nmcp_servers.baton.args = ["mcp"]\n',
      '[mcp_servers]\nbaton.command = "/opt/baton"\nbaton.args = ["mcp"]\n',
    ];
    for (const before of forms) {
      const place = codexToml(before);
      expect(addMcp(place, baton), before).toBe('theirs');
      expect(read(place), before).toBe(before);
      // doctor shows the command the user's entry runs
      expect(findMcp(place), before).toEqual({
        command: '/opt/baton',
        args: ['mcp'],
        forwards: [],
        names_agent: false,
      });
      // and the undo does not take it out
      expect(removeMcp(place), before).toBe('absent');
      expect(read(place), before).toBe(before);
    }
  });

  it('is never written to a file that does not parse: refused with the parser reason, its line and what to do', () => {
    const before = 'model = "gpt-5.5"\n[mcp_servers.docs]\ncommand = "docs-mcp"\n[mcp_servers.docs]\n';
    const place = codexToml(before);
    const said = `${place.path} is not valid TOML (line 4, column 2: trying to redefine an already defined table or value), so Codex cannot read it either, and Baton writes nothing to it: fix the file, then run \`baton init --agent codex\` again`;
    expect(mcpRefusal(place, 'baton init --agent codex')).toBe(said);
    expect(() => addMcp(place, baton)).toThrow(/is not valid TOML \(line 4, column 2: .*fix the file/);
    expect(read(place)).toBe(before);
    expect(findMcp(place)).toBeNull();
    // an undo has nothing to take out of it: left alone, not refused
    expect(mcpRefusal(place, 'baton init --undo', true)).toBeNull();
    expect(removeMcp(place)).toBe('absent');
    expect(read(place)).toBe(before);
    // a file that parses, or none, is not refused
    expect(mcpRefusal(codexToml('model = "gpt-5.5"\n'), 'baton init')).toBeNull();
    expect(mcpRefusal(codexToml(null), 'baton init')).toBeNull();
  });

  it("says which block to delete where an earlier Baton's block broke the file under the user's own server", () => {
    // what `baton init` wrote before it read the file with a TOML parser
    const theirs = '[mcp_servers."baton"]\ncommand = "/opt/baton"\n';
    const place = codexToml(
      `${theirs}\n# >>> baton: added by \`baton init\` (\`baton init --undo\` removes it)\n[mcp_servers.baton]\ncommand = "baton"\nargs = ["mcp"]\n# <<< baton\n`,
    );
    const before = read(place);
    const said = mcpRefusal(place, 'baton init --agent codex');
    expect(said).toMatch(
      /is not valid TOML \(line 5, column 2: trying to redefine .*\), so Codex cannot read it: /,
    );
    expect(said).toMatch(
      /defines the `baton` MCP server twice, yours and again in the block an earlier `baton init` appended; delete that block \(its lines from "# >>> baton" to "# <<< baton"\)/,
    );
    expect(() => addMcp(place, baton)).toThrow(/defines the `baton` MCP server twice/);
    // the undo would take Baton's block out of a file that does not parse: refused too, nothing written
    expect(() => removeMcp(place)).toThrow(/defines the `baton` MCP server twice/);
    expect(read(place)).toBe(before);
  });

  it('is refused where adding it would break the file (`mcp_servers` an inline table of other servers)', () => {
    const before = 'mcp_servers = { docs = { command = "docs-mcp" } }\n';
    const place = codexToml(before);
    expect(() => addMcp(place, baton)).toThrow(
      /would make it invalid TOML \(line \d+, column \d+: .*writes nothing/,
    );
    expect(read(place)).toBe(before);
    expect(existsSync(`${place.path}.baton-tmp`)).toBe(false);
  });
});

describe("Baton's MCP server names the agent that starts it", () => {
  it("in Claude Code's ~/.claude.json, and an entry an earlier `baton init` wrote without it is Baton's, updated", () => {
    const path = join(tempDir('baton-claude-'), '.claude.json');
    const place: McpPlace = { kind: 'claude-json', path, project: '/repo' };
    // what `baton init` wrote before it named the agent: the server then logged the agent's calls as the user's
    const earlier = { type: 'stdio', command: 'baton', args: ['mcp'] };
    writeFileSync(path, JSON.stringify({ projects: { '/repo': { mcpServers: { baton: earlier } } } }));
    expect(findMcp(place)).toMatchObject({ args: ['mcp'], names_agent: false });
    expect(addMcp(place, { program: 'baton', args: [] })).toBe('updated');
    const servers = (JSON.parse(read(place)) as any).projects['/repo'].mcpServers;
    expect(servers.baton).toEqual({
      type: 'stdio',
      command: 'baton',
      args: ['mcp', '--agent', 'claude-code'],
    });
    expect(findMcp(place)).toMatchObject({ names_agent: true });
    expect(addMcp(place, { program: 'baton', args: [] })).toBe('unchanged');
    expect(removeMcp(place)).toBe('removed');
  });

  it("in Codex's config.toml, where an earlier block is replaced by one that names it", () => {
    const place = codexToml(
      '# >>> baton: added by `baton init` (`baton init --undo` removes it)\n[mcp_servers.baton]\ncommand = "baton"\nargs = ["mcp"]\n# <<< baton\n',
    );
    expect(findMcp(place)).toMatchObject({ names_agent: false });
    expect(addMcp(place, { program: 'baton', args: [] })).toBe('updated');
    expect(parsed(place)).toMatchObject({ mcp_servers: { baton: { args: ['mcp', '--agent', 'codex'] } } });
    expect(findMcp(place)).toMatchObject({ names_agent: true });
  });
});
