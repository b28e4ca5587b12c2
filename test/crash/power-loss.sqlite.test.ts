import { expect, it } from 'vitest';
import { powerFsUnavailable } from '../helpers/powerfs.js';
import { powerLossHarness } from './power-loss.js';

const cuts = Number(process.env.BATON_POWER_CUTS ?? 12);

/**
 * `npm test` runs a short power-loss test; `npm run test:power-loss -- --cuts 500` the long one. FUSE is required:
 * CI installs it (.ci/run), so its absence is an error, not a skip.
 */
it(
  `SQLite at durability full loses no acknowledged commit over ${cuts} power cuts; normal loses only the last ones`,
  async () => {
    const unavailable = powerFsUnavailable();
    if (unavailable) throw new Error(`the power-loss test cannot run: ${unavailable}`);
    const report = await powerLossHarness(cuts);
    console.log(`power-loss harness: ${JSON.stringify(report)}`);
    const [full, normal] = report.lanes;
    expect(report.cuts).toBe(cuts);
    expect(report.bytesDropped, 'the cuts dropped unsynced data').toBeGreaterThan(0);
    expect(full!.acknowledged).toBeGreaterThanOrEqual(cuts);
    expect(full!.lostAcknowledged).toBe(0);
    // The same harness sees what `normal` is allowed to lose: it can tell the two apart.
    expect(normal!.acknowledged).toBeGreaterThanOrEqual(cuts);
    expect(
      normal!.lostAcknowledged,
      'normal durability lost nothing: the cuts are not biting',
    ).toBeGreaterThan(0);
  },
  Math.max(600_000, cuts * 10_000),
);
