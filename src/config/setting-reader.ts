import { invalidInput, parseDuration, type BatonError } from '../core/index.js';
import { redactUrl } from '../core/database-url.js';
import type { ConfigFile } from './config-files.js';
import { SETTINGS, type SettingName } from './setting-table.js';

/** A setting's text and where it came from, as messages name it. */
export interface SettingValue {
  text: string | undefined;
  /** `option --port`, `variable BATON_PORT`, `/repo/baton.config.json, key port`, or `default`. */
  from: string;
}

/**
 * The one settings resolver: each setting of SETTINGS is the command-line option, else the environment variable,
 * else the first config file that has its key, else the default. A bad value is an error naming the setting, the
 * value and where it came from, so a user knows which file or variable to fix.
 */
export class SettingReader {
  constructor(
    private readonly options: Partial<Record<SettingName, string | undefined>>,
    private readonly env: NodeJS.ProcessEnv,
    readonly files: ConfigFile[],
  ) {}

  get(name: SettingName): SettingValue {
    const d = SETTINGS[name];
    const option = this.options[name];
    if (option !== undefined) return { text: option, from: `option ${d.option ?? name}` };
    const variable = this.env[d.variable];
    if (variable !== undefined && variable !== '') return { text: variable, from: `variable ${d.variable}` };
    if (d.key) {
      for (const f of this.files) {
        const v = f.values[d.key];
        if (v !== undefined && v !== null)
          return { text: Array.isArray(v) ? v.join(',') : String(v), from: `${f.file}, key ${d.key}` };
      }
    }
    return { text: undefined, from: 'default' };
  }

  text(name: SettingName, fallback: string): string;
  text(name: SettingName): string | undefined;
  text(name: SettingName, fallback?: string): string | undefined {
    return this.get(name).text ?? fallback;
  }

  /** The error for a bad value of a setting: what it is, the value, what was expected, and where it came from. */
  invalid(name: SettingName, why: string): BatonError {
    const { text, from } = this.get(name);
    const d = SETTINGS[name];
    const where =
      from.startsWith('option') || from.startsWith('variable') || from === 'default'
        ? `${d.option ? `option ${d.option}, ` : ''}variable ${d.variable}`
        : from;
    // a URL's password is never said back
    return invalidInput(`${d.label} "${redactUrl(text ?? '')}" ${why} (${where})`);
  }

  oneOf<T extends string>(name: SettingName, values: readonly T[], fallback: T): T {
    const v = this.text(name, fallback);
    if (!(values as readonly string[]).includes(v))
      throw this.invalid(name, `is not one of ${values.join(', ')}`);
    return v as T;
  }

  /** A whole number from min to max; `unit` (tokens, bytes) is named in the error when given. */
  integer(name: SettingName, fallback: number, min: number, max: number, unit = ''): number {
    const v = this.text(name);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max)
      throw this.invalid(name, `must be a whole number${unit ? ` of ${unit}` : ''} from ${min} to ${max}`);
    return n;
  }

  /** A number from min to max (a ratio, a fraction). */
  number(name: SettingName, fallback: number, min: number, max: number): number {
    const v = this.text(name);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < min || n > max)
      throw this.invalid(name, `must be a number from ${min} to ${max}`);
    return n;
  }

  durationMs(name: SettingName, fallback: string): number {
    const { text, from } = this.get(name);
    return parseDuration(text ?? fallback, `${SETTINGS[name].label} (${from})`);
  }

  onOff(name: SettingName, fallback: boolean): boolean {
    const v = this.text(name)?.toLowerCase();
    if (v === undefined) return fallback;
    if (['on', 'true', '1'].includes(v)) return true;
    if (['off', 'false', '0'].includes(v)) return false;
    throw this.invalid(name, 'is not on or off');
  }

  /** A comma-separated list (or a JSON array in a config file). */
  list(name: SettingName): string[] {
    const v = this.text(name);
    return v === undefined
      ? []
      : v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  }
}
