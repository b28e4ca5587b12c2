import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { JsonPlusSerializer } from '@langchain/langgraph-checkpoint';
import { describe, expect, it } from 'vitest';
import { dumpTyped, loadTyped } from '../../src/integrations/langgraph/fast-serde.js';

class OwnSerializer extends JsonPlusSerializer {}

const values: [string, unknown][] = [
  ['plain messages', [{ role: 'user', id: 'm-1', content: 'the "lc" field, quoted \\ and é 🎉' }]],
  ['numbers, nulls, nesting', { a: 1, b: [null, 2.5, { c: [true, false] }], '10': 'integer-like key' }],
  ['a string that spells a marker', 'lc: 1, type: constructor, __proto'],
  ['LangChain messages', [new HumanMessage('hi'), new AIMessage({ content: 'hello', id: 'a-1' })]],
  ['Set, Map, undefined', { s: new Set([1, 2]), m: new Map([['k', 1]]), u: undefined }],
  ['an own __proto__ key', JSON.parse('{"__proto__": {"polluted": true}, "x": 1}')],
  ['a control character', { text: 'bell \u0007 here' }],
];

describe('loadTyped (the default serializer without its reviver where it could only copy)', () => {
  for (const [name, value] of values)
    it(`loads ${name} exactly as the serializer does`, async () => {
      const serde = new JsonPlusSerializer();
      const [type, bytes] = await serde.dumpsTyped(value);
      const expected = await serde.loadsTyped(type, bytes);
      const fromBytes = await loadTyped(serde, type, bytes);
      const fromText = await loadTyped(serde, type, new TextDecoder().decode(bytes));
      for (const got of [fromBytes, fromText]) {
        expect(got).toStrictEqual(expected);
        expect(Object.getPrototypeOf(got)).toStrictEqual(Object.getPrototypeOf(expected));
      }
    });

  it('leaves other serializers and bytes values to the serializer', async () => {
    const own = new OwnSerializer();
    let called = 0;
    own.loadsTyped = async (type, data) => (
      called++,
      JsonPlusSerializer.prototype.loadsTyped.call(own, type, data)
    );
    await loadTyped(own, 'json', '{"a":1}');
    expect(called).toBe(1);
    const bytes = new Uint8Array([1, 2, 3]);
    expect(await loadTyped(new JsonPlusSerializer(), 'bytes', bytes)).toBe(bytes);
  });
});

describe('dumpTyped (primitives written without the serializer walk)', () => {
  for (const value of [
    0,
    42,
    -1.5e300,
    NaN,
    'plain',
    'quote " and \\ and é 🎉 \u0007',
    true,
    null,
    undefined,
    [1],
    { a: 1 },
  ])
    it(`writes ${String(value)} byte for byte as the serializer does`, async () => {
      const serde = new JsonPlusSerializer();
      expect(await dumpTyped(serde, value)).toStrictEqual(await serde.dumpsTyped(value));
    });
});
