import type { SerializerProtocol } from '@langchain/langgraph-checkpoint';
import { isJsonPlus, loadTyped } from './fast-serde.js';
import { valueBytes, type ItemRun, type StoredValue } from './stored-values.js';

/** The run as a JSON array text, made once per read. */
function textOf(run: ItemRun): string {
  if (run.text !== undefined) return run.text;
  const { source } = run;
  const text =
    typeof source === 'string'
      ? source
      : Buffer.from(source.buffer, source.byteOffset, source.byteLength).toString('utf8');
  return (run.text = run.whole ? text : `[${text.slice(1)}]`);
}

/** Plain data: what JSON.parse makes (objects and arrays with their usual prototypes, and primitives). */
function isPlain(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return typeof v !== 'function' && typeof v !== 'symbol';
  if (Array.isArray(v)) return Object.getPrototypeOf(v) === Array.prototype && v.every(isPlain);
  if (Object.getPrototypeOf(v) !== Object.prototype || Object.getOwnPropertySymbols(v).length) return false;
  return Object.entries(Object.getOwnPropertyDescriptors(v)).every(
    ([k, d]) => k !== '__proto__' && 'value' in d && d.enumerable && isPlain(d.value),
  );
}

function copyPlain(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(copyPlain);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = copyPlain((v as Record<string, unknown>)[k]);
  return out;
}

/**
 * Turns stored channel values into objects through the serializer; every value loaded is a fresh object that
 * shares nothing mutable with another. A JSON array stored as appended runs of elements (see StoredValue.items)
 * is parsed a run at a time and the runs' elements concatenated, which relies on the serializer reviving
 * an array element by element: JsonPlusSerializer (LangGraph's default) does; any other gets the whole bytes.
 *
 * Checkpoints listed together share most runs. The text of a run is decoded once per read. A run used a second
 * time is revived once more and kept; when it revived to plain data, later uses get a deep copy of it (the same
 * value the serializer would give again, without parsing and reviving it again); otherwise every use revives it.
 */
export class ValueLoader {
  private readonly elementwise: boolean;

  constructor(private readonly serde: SerializerProtocol) {
    this.elementwise = isJsonPlus(serde);
  }

  async load(value: StoredValue): Promise<unknown> {
    if (!value.items || !this.elementwise) return loadTyped(this.serde, value.type, valueBytes(value));
    let out: unknown[] = [];
    for (const run of value.items) {
      const elements = await this.run(run);
      out = out.length ? out.concat(elements) : elements;
    }
    return out;
  }

  private async run(run: ItemRun): Promise<unknown[]> {
    if (run.template) return run.template.map(copyPlain);
    run.uses = (run.uses ?? 0) + 1;
    const revived = (await loadTyped(this.serde, 'json', textOf(run))) as unknown[];
    if (run.uses < 2 || run.template === null) return revived;
    // the second use: keep this one as the template (never handed out), give a copy
    run.template = isPlain(revived) ? revived : null;
    return run.template ? run.template.map(copyPlain) : revived;
  }
}
