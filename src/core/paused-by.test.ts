import { expect, it } from 'vitest';
import { pausedBy } from './paused-by.js';

it('names what paused a workflow only when its reason does not say it: a usage limit reads as a pause', () => {
  expect(pausedBy('exhaustion')).toBe('paused (exhaustion)');
  expect(pausedBy('timeout')).toBe('paused (timeout)');
  // the reason after it says who asked, or the limit ("usage limit, resets at ..."): not "paused (usage_limit)"
  expect(pausedBy('pause')).toBe('paused');
  expect(pausedBy('usage_limit')).toBe('paused');
  expect(pausedBy(null)).toBe('paused');
});
