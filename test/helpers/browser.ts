import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); `BATON_TEST_CHROMIUM` points elsewhere. */
export const chromiumPath = process.env.BATON_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** Where browser tests save their screenshots (gitignored; CI keeps them as artifacts). */
export const artifactsDir = (name: string): string => {
  const dir = fileURLToPath(new URL(`../../test-artifacts/${name}/`, import.meta.url));
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** Launches headless Chromium, or fails saying how to get it: the browser test never skips. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}: the dashboard's browser test needs it. ` +
        'Install it with `sudo apt-get install chromium` (Debian/Ubuntu), or set BATON_TEST_CHROMIUM to its path.',
    );
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** The dashboard's built files must exist (`npm run build` builds them with `vite build web`). */
export function assertDashboardBuilt(): void {
  const index = fileURLToPath(new URL('../../web/dist/index.html', import.meta.url));
  if (!existsSync(index))
    throw new Error(`${index} is missing: run \`npm run build\` (it builds the dashboard).`);
}
