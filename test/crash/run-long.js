// `npm run test:crash -- --kills 2000`: the crash harness alone, with as many kills per backend as asked.
import { spawnSync } from 'node:child_process';

const i = process.argv.indexOf('--kills');
const kills = i > 0 ? Number(process.argv[i + 1]) : 200;
if (!Number.isInteger(kills) || kills < 1) {
  console.error('usage: npm run test:crash -- --kills N   (N a positive whole number)');
  process.exit(2);
}
const r = spawnSync('npx', ['vitest', 'run', 'test/crash'], {
  stdio: 'inherit',
  env: { ...process.env, BATON_CRASH_KILLS: String(kills) },
});
process.exit(r.status ?? 1);
