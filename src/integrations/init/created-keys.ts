import { isObject, type JsonObject } from './json-file.js';

/**
 * The objects and lists `baton init` makes in the JSON files it edits to hold its entries (`mcpServers`, `projects`
 * and a project's entry in ~/.claude.json, `hooks` and an event's list in a settings file), each named by its path
 * of keys: `["mcpServers"]`, `["hooks", "Stop"]`, `["projects", "/repo", "mcpServers"]`.
 */
export type KeyPath = readonly string[];

/** The value at `key` of the document (undefined when it is not there). */
export const valueAt = (doc: JsonObject, key: KeyPath): unknown =>
  key.reduce<unknown>((v, k) => (isObject(v) && Object.hasOwn(v, k) ? v[k] : undefined), doc);

const isEmpty = (v: unknown) =>
  Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0;

/** Those of `keys` the document lacks: what writing Baton's entries into it makes. */
export const absentKeys = (doc: JsonObject, keys: readonly KeyPath[]): KeyPath[] =>
  keys.filter((k) => valueAt(doc, k) === undefined);

/**
 * Takes each of `keys` out of the document when it holds an empty object or list, the deepest first (a project's
 * `mcpServers` before the project's entry, that before `projects`). `kept`: those left because something is in them.
 */
export function pruneEmpty(
  doc: JsonObject,
  keys: readonly KeyPath[],
): { pruned: KeyPath[]; kept: KeyPath[] } {
  const pruned: KeyPath[] = [];
  const kept: KeyPath[] = [];
  for (const key of [...keys].sort((a, b) => b.length - a.length)) {
    const holder = valueAt(doc, key.slice(0, -1));
    const last = key[key.length - 1];
    if (last === undefined || !isObject(holder) || !Object.hasOwn(holder, last)) continue;
    if (isEmpty(holder[last])) {
      delete holder[last];
      pruned.push(key);
    } else kept.push(key);
  }
  return { pruned, kept };
}

/** A key as the user reads it in the file: `mcpServers`, `hooks.Stop`, `projects["/repo"].mcpServers`. */
export const keyName = (key: KeyPath) =>
  key
    .map((k, i) => (/^[A-Za-z_][\w-]*$/.test(k) ? `${i ? '.' : ''}${k}` : `[${JSON.stringify(k)}]`))
    .join('');

/** What `baton init --undo` says of an object init made that it leaves, something else being in it (named). */
export const keptNote = (key: KeyPath, inside: readonly string[]) =>
  `kept ${keyName(key)} (\`baton init\` made it): ${inside.length ? inside.join(', ') : 'something else'} ${inside.length > 1 ? 'are' : 'is'} in it now`;
