import { describe, expect, it } from 'vitest';
import { absentKeys, keyName, keptNote, pruneEmpty } from './created-keys.js';

describe('the objects init makes to hold its entries', () => {
  it('finds those a document lacks, a key under an absent one absent too', () => {
    const keys = [['projects'], ['projects', '/r'], ['projects', '/r', 'mcpServers']];
    expect(absentKeys({}, keys)).toEqual(keys);
    expect(absentKeys({ projects: { '/r': {} } }, keys)).toEqual([['projects', '/r', 'mcpServers']]);
    // a value that is not an object holds nothing under it
    expect(absentKeys({ projects: 'x' }, keys)).toEqual(keys.slice(1));
  });

  it('takes out the empty ones, the deepest first, and names those kept', () => {
    const doc = { numStartups: 3, projects: { '/r': { mcpServers: {} }, '/s': {} }, hooks: { Stop: [] } };
    const keys = [
      ['projects'],
      ['projects', '/r'],
      ['projects', '/r', 'mcpServers'],
      ['hooks', 'Stop'],
      ['gone'],
    ];
    expect(pruneEmpty(doc, keys)).toEqual({
      pruned: [
        ['projects', '/r', 'mcpServers'],
        ['projects', '/r'],
        ['hooks', 'Stop'],
      ],
      kept: [['projects']],
    });
    // `hooks` was not among them: it stays, empty
    expect(doc).toEqual({ numStartups: 3, projects: { '/s': {} }, hooks: {} });
  });

  it('says a key as it reads in the file', () => {
    expect(keyName(['mcpServers'])).toBe('mcpServers');
    expect(keyName(['projects', '/r', 'mcpServers'])).toBe('projects["/r"].mcpServers');
    expect(keptNote(['hooks', 'Stop'], ['`a`', '`b`'])).toBe(
      'kept hooks.Stop (`baton init` made it): `a`, `b` are in it now',
    );
    expect(keptNote(['mcpServers'], [])).toBe(
      'kept mcpServers (`baton init` made it): something else is in it now',
    );
  });
});
