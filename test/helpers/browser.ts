import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator } from 'playwright-core';

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

/** Waits until the locator's text contains `text` (Playwright's own `expect` lives in @playwright/test). */
export async function waitForText(l: Locator, text: string | RegExp, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    last =
      (await l
        .first()
        .textContent({ timeout: 1000 })
        .catch(() => null)) ?? '';
    if (typeof text === 'string' ? last.includes(text) : text.test(last)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `expected ${String(text)} in ${l.toString()}, last text: ${JSON.stringify(last.slice(0, 300))}`,
  );
}
