/**
 * A process that answers and exits (a hook, most commands) parses each schema a few times: zod's compiled parsers
 * (a generated function per object schema, built on its first use) cost it more than they save, so it interprets
 * them (BENCHMARKS.md, hooks and start-up). A lasting process (the server, the MCP server, an agent run, a worker, an
 * executor) keeps the compiled ones. Called before any schema is built.
 */
export async function interpretSchemas(): Promise<void> {
  (await import('zod')).config({ jitless: true });
}
