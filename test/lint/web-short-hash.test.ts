import { describe, expect, it } from 'vitest';
import { shortHash } from '../../src/core/short-hash.js';
import * as web from '../../web/src/api/short-hash.js';

describe("the dashboard's short commit hash", () => {
  it('is the one the CLI and the briefing show', () => {
    const full = 'e6dc6fe0a1b2c3d4e5f60718293a4b5c6d7e8f90';
    expect(web.shortHash(full)).toBe(shortHash(full));
    expect(web.shortHash(null)).toBe('-');
  });
});
