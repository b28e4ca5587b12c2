import { describe, expect, it } from 'vitest';
import { folderIn } from './transcript-import.js';

describe('where a session worked in its worktree', () => {
  it('is the folder below the root, in either path style, nothing at the root, and the folder itself outside it', () => {
    expect(folderIn('/w/app', '/w/app/src/lib')).toBe('src/lib');
    expect(folderIn('/w/app/', '/w/app/src/lib/')).toBe('src/lib');
    expect(folderIn('/w/app', '/w/app')).toBeNull();
    expect(folderIn('C:/r', 'c:\\r')).toBeNull();
    // a session recorded elsewhere: its relative paths are placed where its absolute ones are
    expect(folderIn('/w/app', '/w/application/src')).toBe('/w/application/src');
    expect(folderIn('/w/app', '/elsewhere/src')).toBe('/elsewhere/src');
    expect(folderIn(null, '/w/app/src')).toBeNull();
    expect(folderIn('/w/app', null)).toBeNull();
    // git gives a Windows worktree with slashes, a Windows agent its folder with backslashes (the drive in any case)
    expect(folderIn('C:/r', 'C:\\r\\src\\lib')).toBe('src/lib');
    expect(folderIn('C:/r', 'c:\\r\\src')).toBe('src');
  });
});
