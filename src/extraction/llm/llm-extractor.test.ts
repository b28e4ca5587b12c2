import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { parseTranscript } from '../../agents/parse-transcript.js';
import { LlmExtractor } from './llm-extractor.js';
import { inferLlmKind, type LlmKind } from './llm-client.js';
import { LlmAnswer, llmAnswerJsonSchema } from './extraction-prompt.js';

/** A real HTTP server on 127.0.0.1 that speaks one protocol and answers from a script of replies. */
type Reply = { status?: number; text?: string; delayMs?: number };
interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function serve(kind: LlmKind, replies: Reply[]): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      seen.push({
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(raw) as Record<string, unknown>,
      });
      const reply = replies[Math.min(seen.length - 1, replies.length - 1)] ?? {};
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        if ((reply.status ?? 200) >= 400) return res.end(JSON.stringify({ error: { message: 'boom' } }));
        const text = reply.text ?? '';
        const body =
          kind === 'anthropic'
            ? {
                id: 'msg_1',
                type: 'message',
                role: 'assistant',
                content: [{ type: 'text', text }],
                stop_reason: 'end_turn',
              }
            : {
                id: 'c1',
                object: 'chat.completion',
                choices: [{ index: 0, message: { role: 'assistant', content: text } }],
              };
        res.end(JSON.stringify(body));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((ready) => server?.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, seen };
}

const good = JSON.stringify({
  decisions: [
    {
      decision_type: 'clarification',
      description: 'No rig prefix for the beads',
      rationale: "the user's answer",
      alternatives_considered: ['spotter'],
      entry: 2,
    },
  ],
  errors: [
    {
      error_type: 'tool_rejected',
      error_message: 'User rejected the Bash call',
      context: null,
      resolution: 'unresolved',
      resolution_notes: null,
      entry: 1,
    },
  ],
});

const entries = parseTranscript(readCorpus('claude-code/spotter/short.jsonl')).entries;
/** A transcript whose rules extraction finds errors (a Stop hook's feedback and two permission refusals). */
const refused = parseTranscript(readCorpus('stream-json/trackgentic/stream.jsonl')).entries;

describe.each(['anthropic', 'openai'] as const)('LlmExtractor over the %s protocol', (kind) => {
  it('sends the Amelia prompt and turns a valid answer into drafts pointing at their entries', async () => {
    const { baseUrl, seen } = await serve(kind, [{ text: `Here you go:\n\`\`\`json\n${good}\n\`\`\`` }]);
    const llm = new LlmExtractor({ kind, baseUrl, model: 'test-model', apiKey: 'k-123' });
    const result = await llm.extract({ entries, taskId: 't1' });
    expect(result.fallback_reason).toBeUndefined();
    expect(result.extractor).toBe('llm');
    expect(result.decisions).toEqual([
      {
        task_id: 't1',
        decision_type: 'clarification',
        description: 'No rig prefix for the beads',
        rationale: "the user's answer",
        alternatives_considered: ['spotter'],
        at: entries[1]?.at,
        evidence_line: entries[1]?.line,
      },
    ]);
    expect(result.errors[0]).toMatchObject({ resolution: 'unresolved', evidence_line: entries[0]?.line });
    const request = seen[0] as Seen;
    if (kind === 'anthropic') {
      expect(request.path).toBe('/v1/messages');
      expect(request.headers['x-api-key']).toBe('k-123');
      expect(request.headers['anthropic-version']).toBe('2023-06-01');
      expect(String(request.body.system)).toContain('A "decision" is a significant choice');
    } else {
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe('Bearer k-123');
      expect(JSON.stringify(request.body.messages)).toContain('<execution_history>');
      expect(request.body.response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'extraction', schema: z.toJSONSchema(LlmAnswer, { io: 'input' }) },
      });
    }
  });

  it('retries an answer that is not valid JSON, then uses the good one', async () => {
    const { baseUrl, seen } = await serve(kind, [
      { text: 'Sure! {"decisions": [' },
      { text: '{"decisions": "no"}' },
      { text: good },
    ]);
    const result = await new LlmExtractor({ kind, baseUrl, model: 'm' }).extract({ entries });
    expect(seen).toHaveLength(3);
    expect(result.fallback_reason).toBeUndefined();
    expect(result.decisions).toHaveLength(1);
  });

  it('falls back to the rules when the endpoint is slower than the timeout, and says so', async () => {
    const { baseUrl } = await serve(kind, [{ text: good, delayMs: 5_000 }]);
    const result = await new LlmExtractor({ kind, baseUrl, model: 'm', timeoutMs: 200 }).extract({
      entries: refused,
    });
    expect(result.extractor).toBe('rules');
    expect(result.fallback_reason).toMatch(/timeout after 200 ms; used rules/);
    expect(result.errors.map((e) => e.evidence_line)).toEqual([10, 19, 46]);
  });

  it('falls back to the rules on a server error without retrying it', async () => {
    const { baseUrl, seen } = await serve(kind, [{ status: 500 }]);
    const result = await new LlmExtractor({ kind, baseUrl, model: 'm' }).extract({ entries: refused });
    expect(seen).toHaveLength(1);
    expect(result.extractor).toBe('rules');
    expect(result.fallback_reason).toMatch(/answered 500/);
    expect(result.errors).toHaveLength(3);
  });

  it('reads a long transcript in windows, none left out', async () => {
    const long = parseTranscript(
      readCorpus('claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl'),
    ).entries;
    const { baseUrl, seen } = await serve(kind, [{ text: good }]);
    const result = await new LlmExtractor({ kind, baseUrl, model: 'm', window: 200 }).extract({
      entries: long,
    });
    expect(seen).toHaveLength(Math.ceil(long.length / 200));
    const sent = seen.map((r) => JSON.stringify(r.body)).join('\n');
    expect(sent).toContain(JSON.stringify(long.at(-1)?.text.slice(0, 40)).slice(1, -1));
    // the same answer for every window: each draft points into its own window, duplicates dropped
    expect(result.extractor).toBe('llm');
    expect(result.decisions).toHaveLength(1);
  });

  it('falls back when every answer is invalid (bounded attempts)', async () => {
    const { baseUrl, seen } = await serve(kind, [{ text: 'not json at all' }]);
    const result = await new LlmExtractor({ kind, baseUrl, model: 'm', maxAttempts: 2 }).extract({ entries });
    expect(seen).toHaveLength(2);
    expect(result.fallback_reason).toMatch(/no valid answer after 2 attempts/);
  });
});

describe('inferLlmKind', () => {
  it('reads the protocol from the host or the API path, and refuses to guess otherwise', () => {
    expect(inferLlmKind('https://api.anthropic.com')).toBe('anthropic');
    expect(inferLlmKind('http://127.0.0.1:9000/v1/messages')).toBe('anthropic');
    expect(inferLlmKind('https://api.openai.com/v1')).toBe('openai');
    expect(inferLlmKind('http://localhost:11434/v1/chat/completions')).toBe('openai');
    expect(inferLlmKind('http://127.0.0.1:8080')).toBeNull();
    expect(inferLlmKind('not a url')).toBeNull();
  });
});

describe("the answer's JSON schema", () => {
  it('is built once, when a request first needs it (an import that never asks a model does not pay for it)', () => {
    const schema = llmAnswerJsonSchema();
    expect(schema).toEqual(z.toJSONSchema(LlmAnswer, { io: 'input' }));
    expect(llmAnswerJsonSchema()).toBe(schema);
  });
});
