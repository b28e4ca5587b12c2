import { readFileSync } from 'node:fs';

export type JsonRead =
  { ok: true; value: unknown } | { ok: false; reason: 'missing' | 'corrupt'; message: string };

/** Reads a JSON file without throwing: missing and corrupt files are told apart. */
export function readJsonFile(path: string): JsonRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      ok: false,
      reason: code === 'ENOENT' ? 'missing' : 'corrupt',
      message: (e as Error).message,
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, reason: 'corrupt', message: (e as Error).message };
  }
}
