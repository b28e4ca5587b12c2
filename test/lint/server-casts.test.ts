import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();
const castProblems = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath }))[0]!.messages
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);

describe('no casts that switch off the typed responses in the server (npm run lint)', () => {
  it('refuses `as never`, `as any` and `as unknown as` in src/server', async () => {
    const code = [
      'export const a = 1 as never;',
      'export const b = 1 as any;',
      'export const c = 1 as unknown as string;',
      '',
    ].join('\n');
    const found = await castProblems('src/server/api/probe-routes.ts', code);
    expect(found).toHaveLength(3);
    expect(found[0]).toContain('no `as never`, `as any` or `as unknown as` in the server');
  });

  it('allows a widening `as unknown`, casts outside the server, and the server as it is', async () => {
    expect(
      await castProblems('src/server/probe.ts', 'export const a = JSON.parse("1") as unknown;\n'),
    ).toEqual([]);
    expect(await castProblems('src/service/probe.ts', 'export const a = 1 as never;\n')).toEqual([]);
    const results = await eslint.lintFiles(['src/server/**/*.ts']);
    const casts = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => `${r.filePath}:${m.line}`),
    );
    expect(casts).toEqual([]);
  });
});
