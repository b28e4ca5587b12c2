import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();
const problems = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath }))[0]!.messages
    .filter((m) => m.ruleId === 'layers/allowed-imports')
    .map((m) => m.message);

describe('the layer allow-list (npm run lint)', () => {
  it('refuses an import of a layer not listed for the importer', async () => {
    expect(
      await problems('src/core/probe.ts', "import { x } from '../service/index.js';\nexport { x };\n"),
    ).toEqual([expect.stringContaining('src/core may not import code from src/service')]);
    expect(await problems('src/storage/probe.ts', "export { y } from '../cli/main.js';\n")).toHaveLength(1);
    expect(
      await problems('src/service/probe.ts', "await import('../server/index.js');\nexport {};\n"),
    ).toHaveLength(1);
  });

  it('allows what is listed, types where only types are listed, and the layer itself', async () => {
    expect(
      await problems('src/service/probe.ts', "import { x } from '../core/index.js';\nexport { x };\n"),
    ).toEqual([]);
    expect(
      await problems(
        'src/git/probe.ts',
        "import type { GitPort } from '../service/index.js';\nexport type G = GitPort;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'src/git/probe.ts',
        "import { BatonService } from '../service/index.js';\nexport const S = BatonService;\n",
      ),
    ).toEqual([expect.stringContaining('may not import code from src/service')]);
    expect(await problems('src/core/a/probe.ts', "import { x } from '../b.js';\nexport { x };\n")).toEqual(
      [],
    );
  });

  it('keeps the server off the Store: the event log through service.events, not even storage types', async () => {
    expect(
      await problems(
        'src/server/probe.ts',
        "import type { Store } from '../storage/store.js';\nexport type S = Store;\n",
      ),
    ).toEqual([expect.stringContaining('src/server may not import')]);
    expect(
      await problems(
        'src/server/live/probe.ts',
        "import type { EventFeed } from '../../service/index.js';\nexport type F = EventFeed;\n",
      ),
    ).toEqual([]);
  });
});
