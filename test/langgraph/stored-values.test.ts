import { JsonPlusSerializer } from '@langchain/langgraph-checkpoint';
import { describe, expect, it } from 'vitest';
import { RecentValues } from '../../src/integrations/langgraph/recent-values.js';
import { assembleBlobs, blobKey, valueBytes } from '../../src/integrations/langgraph/stored-values.js';
import { ValueLoader } from '../../src/integrations/langgraph/value-loader.js';
import type { LgBlobRead } from '../../src/storage/langgraph-tables.js';

const serde = new JsonPlusSerializer();
const text = new TextDecoder();

/** Writes `values` of one channel as the saver does; returns the rows as a storage reads them back. */
async function store(values: unknown[], asText: boolean) {
  const recent = new RecentValues();
  const rows: LgBlobRead[] = [];
  for (const [i, value] of values.entries()) {
    const version = String(i + 1);
    const [type, bytes] = await serde.dumpsTyped(value);
    const { delta, next } = recent.encode('t', '', 'ch', version, type, bytes);
    recent.set('t', '', 'ch', next);
    const stored = delta?.middle ?? bytes;
    // SQLite reads JSON written whole, and deltas starting with a comma, as text
    const readAsText = asText && type === 'json' && (!delta || (delta.suffix <= 1 && stored[0] === 0x2c));
    rows.push({
      channel: 'ch',
      version,
      type,
      value: readAsText ? text.decode(stored) : stored,
      size: stored.length,
      base_version: delta?.base ?? null,
      prefix_len: delta?.prefix ?? 0,
      suffix_len: delta?.suffix ?? 0,
    });
  }
  const refs = values.map((_, i) => ({ channel: 'ch', version: String(i + 1) }));
  const built = assembleBlobs(refs, rows);
  return { rows, refs, get: (i: number) => built.get(blobKey('ch', String(i + 1)))! };
}

const words = ['plain', 'with },{ inside', 'accents é and 😀', 'quote " and \\ backslash'];
const message = (i: number) => ({ id: `m${i}`, content: `${words[i % words.length]} ${'x'.repeat(300)}` });
const growing = (n: number) =>
  Array.from({ length: n }, (_, i) => Array.from({ length: i + 1 }, (_, j) => message(j)));

describe('stored channel values', () => {
  for (const asText of [false, true]) {
    it(`rebuilds every version of a growing array from skip-deltas (values read as ${asText ? 'text' : 'bytes'})`, async () => {
      const values = growing(300);
      const { rows, get } = await store(values, asText);
      const depth = (version: string): number => {
        const base = rows.find((r) => r.version === version)!.base_version;
        return base === null ? 0 : 1 + depth(base);
      };
      const loader = new ValueLoader(serde);
      for (const [i, value] of values.entries()) {
        expect(await loader.load(get(i))).toEqual(value);
        expect(text.decode(valueBytes(get(i)))).toBe(JSON.stringify(value));
        expect(depth(String(i + 1))).toBeLessThanOrEqual(Math.log2(i + 1) + 1);
      }
      // most of the values are stored as deltas holding what they added
      expect(rows.filter((r) => r.base_version === null).length).toBeLessThan(10);
    });
  }

  it('rebuilds values that change in the middle (not appended runs)', async () => {
    const values = Array.from({ length: 40 }, (_, i) => ({
      log: 'y'.repeat(400),
      count: i,
      tail: 'z'.repeat(i),
    }));
    const { rows, get } = await store(values, true);
    expect(rows.some((r) => r.base_version !== null)).toBe(true);
    for (const [i, value] of values.entries())
      expect(await new ValueLoader(serde).load(get(i))).toEqual(value);
  });

  it('gives every value its own objects, plain or revived, however many values share a run', async () => {
    // a set (revived by the serializer, not plain data) first, then messages appended one at a time
    const values = growing(12).map((list) => [new Set(['s']), ...list]);
    const { get } = await store(values, true);
    expect(get(11).items?.length).toBeGreaterThan(1);
    const loader = new ValueLoader(serde);
    const loaded = [];
    for (const i of values.keys()) loaded.push((await loader.load(get(i))) as unknown[]);
    loaded.forEach((v, i) => expect(v).toEqual(values[i]));
    const [a, b] = [loaded[10]!, loaded[11]!];
    expect(a[0]).toBeInstanceOf(Set);
    expect(a[0]).not.toBe(b[0]);
    (a[1] as { content: string }).content = 'changed';
    (a[0] as Set<string>).add('changed');
    expect(b[1]).toEqual(message(0));
    expect(b[0]).toEqual(new Set(['s']));
    expect(await loader.load(get(11))).toEqual(values[11]);
  });
});
