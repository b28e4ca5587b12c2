// `npm run test:power-loss -- --cuts 500`: the power-loss test alone, with as many power cuts as asked.
import { spawnSync } from 'node:child_process';

const i = process.argv.indexOf('--cuts');
const cuts = i > 0 ? Number(process.argv[i + 1]) : 500;
if (!Number.isInteger(cuts) || cuts < 1) {
  console.error('usage: npm run test:power-loss -- --cuts N   (N a positive whole number)');
  process.exit(2);
}
const r = spawnSync('npx', ['vitest', 'run', 'test/crash/power-loss.sqlite.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, BATON_POWER_CUTS: String(cuts) },
});
process.exit(r.status ?? 1);
