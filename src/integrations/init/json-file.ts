import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { invalidInput } from '../../core/index.js';
import { DEFAULT_STYLE, formatJson, jsonStyle } from './json-style.js';

export type JsonObject = Record<string, unknown>;

/** A JSON object file, or `{}` when it does not exist. A file that is not a JSON object is refused, never overwritten. */
export function readJsonObject(path: string): JsonObject {
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    const text = readFileSync(path, 'utf8');
    parsed = text.trim() ? JSON.parse(text) : {};
  } catch (e) {
    throw invalidInput(
      `${path} is not valid JSON (${(e as Error).message}); fix it by hand, Baton will not overwrite it`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalidInput(`${path} must hold a JSON object; Baton will not overwrite it`);
  return parsed as JsonObject;
}

/**
 * Writes atomically (a temporary file renamed over it), laid out as the file was (`jsonStyle`: its indentation, one
 * line or not, its final newline), so what Baton adds and later takes out again leaves the rest of it byte for byte;
 * a new file two-space indented, like the agents write theirs.
 */
export function writeJsonObject(path: string, value: JsonObject): void {
  mkdirSync(dirname(path), { recursive: true });
  const style = existsSync(path) ? jsonStyle(readFileSync(path, 'utf8')) : DEFAULT_STYLE;
  const tmp = `${path}.baton-tmp`;
  writeFileSync(tmp, formatJson(value, style));
  renameSync(tmp, path);
}

/** Whether `text` is JSON that holds `value` (however it is laid out). */
const holds = (text: string, value: JsonObject) => {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
};

/**
 * Writes the object, or deletes the file when it is empty and Baton created it; where the file's text before Baton
 * changed it (`original`) holds the same object, that text is written back as it was.
 */
export function writeOrRemove(
  path: string,
  value: JsonObject,
  createdByBaton: boolean,
  original?: string,
): 'written' | 'deleted' {
  if (createdByBaton && Object.keys(value).length === 0) {
    rmSync(path, { force: true });
    return 'deleted';
  }
  if (original !== undefined && holds(original, value)) {
    const tmp = `${path}.baton-tmp`;
    writeFileSync(tmp, original);
    renameSync(tmp, path);
  } else writeJsonObject(path, value);
  return 'written';
}

export const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
