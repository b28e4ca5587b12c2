import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/client/http-client.js';
import { importTranscriptFile } from '../../src/integrations/transcripts/import-file.js';
import { ImportList, Status } from '../../src/server/api/response-schemas.js';
import { runCli } from '../helpers/cli.js';
import { corpusPath } from '../helpers/corpus.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startTestServer, type TestServer } from '../helpers/in-process-server.js';

const LONG = 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl';

/**
 * A status says how far each recent transcript was read (its format, path, line and byte, where its agent worked,
 * when); the transcript parser's carry-over (`parser_state`: the builder's open calls, recent calls, folder) is the
 * importer's own bookkeeping: the REST status, `baton status --json` and the MCP tools never show it. The importer
 * reads it from `GET /api/workflows/{id}/imports`, so an import through a server still reads on where it stopped.
 */
describe('a workflow status and its imported transcripts', () => {
  let t: TestServer;
  const repo = makeRepo();
  let client: HttpClient;
  let id = '';
  const path = join(tempDir(), 'growing.jsonl');
  const lines = readFileSync(corpusPath(LONG), 'utf8').split('\n');
  let first: Awaited<ReturnType<typeof importTranscriptFile>>;

  beforeAll(async () => {
    t = await startTestServer();
    client = new HttpClient(t.server.url, t.server.token, repo);
    id = (await client.create({ title: 'imports', tasks: [], cwd: repo })).id;
    writeFileSync(path, lines.slice(0, 900).join('\n') + '\n');
    // through the server, as `baton import` and the hooks do with BATON_URL
    first = await importTranscriptFile(client, { workflowId: id }, path, 'claude-code');
  });
  afterAll(async () => t?.close());

  it('GET .../status lists how far the transcript was read, without the parser state', async () => {
    const res = await t.api(`/api/workflows/${id}/status`);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain('parser_state');
    // the response is what its schema says (an import's summary has no key the schema does not name)
    const status = Status.parse(JSON.parse(text));
    expect(Object.values(status.imports)).toEqual([
      {
        format: 'claude-code-transcript',
        path,
        through_line: 900,
        through_byte: first.read.to_byte,
        recorded_in: expect.any(Object),
        read_at: expect.any(String),
      },
    ]);
  });

  it('GET .../imports still gives the importer its parser state, every import or the recent ones', async () => {
    for (const query of ['', '?recent=true', `?path=${encodeURIComponent(path)}`]) {
      const list = ImportList.parse(await (await t.api(`/api/workflows/${id}/imports${query}`)).json());
      expect(list.imports, query).toHaveLength(1);
      expect(list.imports[0]!.parser_state, query).toMatchObject({ builder: expect.any(Object) });
    }
    expect((await t.api(`/api/workflows/${id}/imports?recent=yes`)).status).toBe(400);
  });

  it('an import through the server reads on where the last one stopped, as one import of the whole file does', async () => {
    appendFileSync(path, lines.slice(900).join('\n'));
    const second = await importTranscriptFile(client, { workflowId: id }, path, 'claude-code');
    expect(second.read.from_byte).toBe(first.read.to_byte);
    expect(second.warnings).toEqual([]);

    const whole = (await client.create({ title: 'whole', tasks: [], cwd: repo })).id;
    const once = await importTranscriptFile(client, { workflowId: whole }, path, 'claude-code');
    expect(first.new_entries + second.new_entries).toBe(once.new_entries);
    const history = async (w: string) =>
      (await t.service.store.listRecords(w, 'history')).map((r) => (r.data as { text: string }).text);
    expect(await history(id)).toEqual(await history(whole));
  });

  it('`baton status --json` shows no parser state, on the local store or through the server', async () => {
    const home = tempDir('baton-home-');
    const local = { BATON_HOME: home };
    expect((await runCli(['create', '--title', 'local'], { cwd: repo, env: local })).code).toBe(0);
    const imported = await runCli(['import', 'claude-code', corpusPath('claude-code/spotter/short.jsonl')], {
      cwd: repo,
      env: local,
    });
    expect(imported.code, imported.stderr).toBe(0);
    const server = { BATON_HOME: home, BATON_URL: t.server.url, BATON_TOKEN: t.server.token ?? '' };
    for (const [env, args] of [
      [local, []],
      [server, ['-w', id]],
    ] as const) {
      const r = await runCli(['status', '--json', ...args], { cwd: repo, env });
      expect(r.code, r.stderr).toBe(0);
      expect(Object.keys(r.json<{ imports: object }>().imports)).toHaveLength(1);
      expect(r.stdout).not.toContain('parser_state');
    }
  });
});
