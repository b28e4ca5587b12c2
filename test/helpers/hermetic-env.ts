/**
 * The environment for a child process a test starts: the shell's, without any Baton setting (BATON_URL, BATON_TOKEN,
 * BATON_DATABASE_URL, BATON_HOME... set in the developer's shell would send the child elsewhere), then `extra`.
 * Variables meant for the tests themselves (BATON_TEST_*) are kept.
 */
export function hermeticEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('BATON_') || k.startsWith('BATON_TEST_')) env[k] = v;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}
