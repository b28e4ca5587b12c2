import { describe, expect, it } from 'vitest';
import { BatonError } from '../../src/core/index.js';
import { loadDockerode } from '../../src/executors/docker/engine.js';

/** dockerode is an optional peer dependency: loaded when the Docker executor runs, named when it is missing. */
describe('loading dockerode', () => {
  it('loads the installed package', async () => {
    const Dockerode = await loadDockerode();
    expect(typeof Dockerode).toBe('function');
  });

  it('a package that is not installed: a BatonError naming what to install', async () => {
    const e = await loadDockerode('dockerode-not-installed-here').catch((x: unknown) => x);
    expect(BatonError.isInstance(e)).toBe(true);
    expect((e as BatonError).code).toBe('unavailable');
    expect((e as BatonError).message).toContain('npm install -g dockerode-not-installed-here');
  });
});
