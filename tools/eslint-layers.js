import { dirname, relative, resolve } from 'node:path';

/**
 * The layer rule as an allow-list (docs/architecture.md): a module under src/<layer>/ may import, besides its own
 * layer, only the layers listed for it; `types` lists layers it may take types from and nothing else. A layer missing
 * from the table may import nothing outside itself. Relative imports are resolved against the importing file.
 */
export const LAYERS = {
  core: { code: [] },
  tokens: { code: ['core'] },
  config: { code: ['core', 'storage'] },
  storage: { code: ['core', 'config'] },
  service: { code: ['core', 'storage'] },
  git: { code: ['core'], types: ['service'] },
  agents: { code: ['core'], types: ['service'] },
  extraction: { code: ['core', 'agents'] },
  executors: { code: ['core', 'config', 'service'] },
  client: { code: ['core', 'service', 'git'] },
  disk: { code: ['core', 'service', 'storage'] },
  integrations: { code: ['core', 'client', 'agents', 'extraction', 'service', 'config', 'storage'] },
  mcp: { code: ['core', 'client', 'service', 'config'] },
  // The server reads the log through the service (service.events), never the Store: not even its types.
  server: { code: ['core', 'client', 'service', 'config'] },
  'open-baton.ts': {
    code: [
      'agents',
      'client',
      'config',
      'disk',
      'executors',
      'git',
      'integrations',
      'service',
      'storage',
      'tokens',
      'core',
    ],
  },
  'index.ts': { code: ['open-baton.ts', 'storage', 'config', 'client', 'service', 'core', 'tokens'] },
  cli: {
    code: [
      'agents',
      'client',
      'config',
      'core',
      'disk',
      'executors',
      'extraction',
      'git',
      'integrations',
      'mcp',
      'open-baton.ts',
      'server',
      'service',
      'storage',
      'tokens',
    ],
  },
};

const src = resolve('src');

/** `src/<layer>/...` or `src/<file>.ts` → the layer's name; null outside src/. */
function layerOf(path) {
  const rel = relative(src, path);
  if (rel.startsWith('..') || rel === '') return null;
  const [first, ...rest] = rel.split('/');
  return rest.length ? first : first.replace(/\.js$/, '.ts');
}

const rule = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { denied: '{{from}} may not import {{what}} from {{to}} ({{why}})' },
  },
  create(context) {
    const file = context.filename;
    const from = layerOf(file);
    if (!from || /\.test\.ts$/.test(file)) return {};
    const allowed = LAYERS[from] ?? { code: [] };
    const check = (node, source, typeOnly) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = layerOf(resolve(dirname(file), source));
      if (!to || to === from) return;
      if (allowed.code.includes(to)) return;
      if (typeOnly && allowed.types?.includes(to)) return;
      context.report({
        node,
        messageId: 'denied',
        data: {
          from: `src/${from}`,
          to: `src/${to}`,
          what: typeOnly ? 'types' : 'code',
          why: `allowed: ${[...allowed.code, ...(allowed.types ?? []).map((t) => `${t} (types)`)].join(', ') || 'nothing'}; tools/eslint-layers.js`,
        },
      });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source.value, n.importKind === 'type'),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value, n.exportKind === 'type'),
      ExportAllDeclaration: (n) => check(n, n.source.value, n.exportKind === 'type'),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value, false),
    };
  },
};

export const layersPlugin = { rules: { 'allowed-imports': rule } };
