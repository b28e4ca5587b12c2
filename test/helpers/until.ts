/** Polls `probe` until it returns a truthy value, failing with `what` after `ms`: tests wait for what they can see. */
export async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  ms = 30_000,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
