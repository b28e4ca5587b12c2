import { JsonPlusSerializer, type SerializerProtocol } from '@langchain/langgraph-checkpoint';

/** LangGraph's default serializer itself, not a subclass that may load differently. */
export const isJsonPlus = (serde: SerializerProtocol): boolean =>
  Object.getPrototypeOf(serde) === JsonPlusSerializer.prototype;

/**
 * JSON text in which JsonPlusSerializer's reviver has nothing to do: no `"lc"` key (every value it revives is
 * marked with one), no `__proto__` key (which its copying would turn into a prototype) and no `\u` escape
 * (which could spell either).
 */
const needsNoReviver = (text: string): boolean =>
  !text.includes('"lc"') && !text.includes('__proto__') && !text.includes('\\u');

const utf8 = new TextDecoder();
const utf8Out = new TextEncoder();

/**
 * `serde.dumpsTyped`, without the serializer's walk where JSON.stringify alone writes the same bytes: a number,
 * string, boolean or null (a counter, a flag, a branch marker), which the default serializer passes through as
 * they are. Each call of the serializer costs several microseconds however small the value.
 */
export function dumpTyped(serde: SerializerProtocol, value: unknown): Promise<[string, Uint8Array]> {
  const t = typeof value;
  if ((value === null || t === 'number' || t === 'string' || t === 'boolean') && isJsonPlus(serde))
    return Promise.resolve(['json', utf8Out.encode(JSON.stringify(value))]);
  return serde.dumpsTyped(value);
}

/**
 * `serde.loadsTyped`, skipping the reviver where it could only copy. The default serializer parses JSON and then
 * rebuilds every object and array of it through a promise per value, to revive the LangChain objects, Sets, Maps,
 * Errors and `undefined`s it marked when saving; JSON with no such mark comes out as JSON.parse makes it, at a
 * fraction of the cost. Anything else goes through the serializer.
 */
export function loadTyped(
  serde: SerializerProtocol,
  type: string,
  data: Uint8Array | string,
): Promise<unknown> {
  if (type !== 'json' || !isJsonPlus(serde)) return serde.loadsTyped(type, data);
  const text = typeof data === 'string' ? data : utf8.decode(data);
  return needsNoReviver(text) ? Promise.resolve(JSON.parse(text)) : serde.loadsTyped(type, text);
}
