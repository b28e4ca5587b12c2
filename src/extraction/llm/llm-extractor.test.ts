import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { parseTranscript } from '../../agents/parse-transcript.js';
import { LlmExtractor } from './llm-extractor.js';
import type { LlmKind } from './llm-client.js';

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

describe.each(['anthropic', 'openai'] as const)('LlmExtractor over the %s protocol', (kind) => {
  it('sends the Amelia prompt and turns a valid answer into drafts pointing at their entries', async () => {
    const { baseUrl, seen } = await serve(kind, [{ text: `Here you go:\n\`\`\`json\n${good}\n\`\`\`` }]);
    const llm = new LlmExtractor({ kind, baseUrl, model: 'test-model', apiKey: 'k-123' });
    const result = await llm.extract({ entries, taskId: 't1' });
    expect(result.fallback_reason).toBeUndefined();
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

  it('falls back to the rules when the endpoint is slower than the timeout', async () => {
    const { baseUrl } = await serve(kind, [{ text: good, delayMs: 2_000 }]);
    const started = Date.now();
    const result = await new LlmExtractor({ kind, baseUrl, model: 'm', timeoutMs: 200 }).extract({ entries });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(result.fallback_reason).toMatch(/timeout.*rules/);
    expect(result.errors.map((e) => e.evidence_line)).toEqual([11, 12]);
  });

  it('falls back to the rules on a server error without retrying it', async () => {
    const { baseUrl, seen } = await serve(kind, [{ status: 500 }]);
    const result = await new LlmExtractor({ kind, baseUrl, model: 'm' }).extract({ entries });
    expect(seen).toHaveLength(1);
    expect(result.fallback_reason).toMatch(/answered 500/);
    expect(result.errors).toHaveLength(2);
  });

  it('falls back when every answer is invalid (bounded attempts)', async () => {
    const { baseUrl, seen } = await serve(kind, [{ text: 'not json at all' }]);
    const result = await new LlmExtractor({ kind, baseUrl, model: 'm', maxAttempts: 2 }).extract({ entries });
    expect(seen).toHaveLength(2);
    expect(result.fallback_reason).toMatch(/no valid answer after 2 attempts/);
  });
});
