import { invalidInput } from '../../core/index.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The variables `--docker-env` gives the agent in its container, as `NAME=VALUE`: `NAME=VALUE` as given, `NAME` with
 * its value in Baton's own environment (a secret such as ANTHROPIC_API_KEY stays off the command line). A name that
 * is not a variable name, or one not set here, is an error that says so.
 */
export function containerEnv(given: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return given.map((item) => {
    const at = item.indexOf('=');
    const name = at >= 0 ? item.slice(0, at) : item;
    if (!NAME.test(name))
      throw invalidInput(
        `--docker-env ${item}: ${name || 'an empty name'} is not a variable name (NAME or NAME=VALUE)`,
      );
    if (at >= 0) return item;
    const value = env[name];
    if (value === undefined)
      throw invalidInput(
        `--docker-env ${name}: ${name} is not set in Baton's environment; set it, or give its value (--docker-env ${name}=VALUE)`,
      );
    return `${name}=${value}`;
  });
}
