import { describe, expect, it } from 'vitest';
import { containerEnv } from './container-env.js';

describe('containerEnv (--docker-env)', () => {
  it('takes NAME=VALUE as given and NAME from the environment', () => {
    expect(containerEnv(['KEY', 'MODE=a=b', 'EMPTY='], { KEY: 'v' })).toEqual([
      'KEY=v',
      'MODE=a=b',
      'EMPTY=',
    ]);
  });
  it('refuses a name that is not set, or not a variable name, saying so', () => {
    expect(() => containerEnv(['MISSING'], {})).toThrow(
      "--docker-env MISSING: MISSING is not set in Baton's environment",
    );
    expect(() => containerEnv(['1X=2'], {})).toThrow('1X is not a variable name');
    expect(() => containerEnv(['=v'], {})).toThrow('an empty name is not a variable name');
  });
});
