import { describe, expect, it } from 'vitest';
import { cutToWidth, displayWidth, padToWidth } from './display-width.js';
import { table } from './output.js';

describe('displayWidth', () => {
  it('counts the terminal columns: wide East Asian characters and emoji two, marks and joiners none', () => {
    expect(displayWidth('Add login')).toBe(9);
    expect(displayWidth('로그인 페이지')).toBe(13); // Hangul syllables
    expect(displayWidth('ログイン画面')).toBe(12); // Katakana, ideographs
    expect(displayWidth('修复登录')).toBe(8);
    expect(displayWidth('ＡＢ')).toBe(4); // fullwidth forms
    expect(displayWidth('Add 🚀')).toBe(6);
    expect(displayWidth('e\u0301')).toBe(1); // a combining accent
    expect(displayWidth('❤\uFE0F')).toBe(2); // a text pictograph asked as a picture
    expect(displayWidth('👍🏽')).toBe(2); // a skin tone
    expect(displayWidth('👨‍👩‍👧')).toBe(2); // a ZWJ family
    expect(displayWidth('🇰🇷')).toBe(2); // a flag
  });

  it('pads and cuts by columns, never splitting a character from its marks', () => {
    expect(padToWidth('로그인', 8)).toBe('로그인  ');
    expect(cutToWidth('로그인 페이지 추가', 8)).toBe('로그인…');
    expect(displayWidth(cutToWidth('로그인 페이지 추가', 8))).toBeLessThanOrEqual(8);
    expect(cutToWidth('a👨‍👩‍👧b', 3)).toBe('a…');
    expect(cutToWidth('a👨‍👩‍👧bc', 4)).toBe('a👨‍👩‍👧…');
    expect(cutToWidth('/home/me/src/repo-login', 12, 'start')).toBe('…/repo-login');
    expect(cutToWidth('short', 12)).toBe('short');
  });
});

describe('table', () => {
  it('lines up columns by display width, so a Korean or emoji title keeps the columns after it in line', () => {
    const lines = table(
      ['TITLE', 'STEP'],
      [
        ['로그인 페이지', '1/3'],
        ['Add 🚀', '0/1'],
        ['plain', '2/2'],
      ],
    ).split('\n');
    const at = (line: string) => displayWidth(line.slice(0, line.lastIndexOf(' ') + 1));
    expect(new Set(lines.map(at)).size).toBe(1);
  });

  it('with fit, cuts the columns it may to the width, the widest first, never under their minimum', () => {
    const rows = [['x'.repeat(40), 'y'.repeat(30), 'fixed']];
    const [, , row] = table(['A', 'B', 'LAST!'], rows, {
      width: 50,
      shrink: { 0: { min: 10 }, 1: { min: 10 } },
    }).split('\n');
    expect(displayWidth(row!)).toBe(50);
    const [, , floor] = table(['A', 'B', 'C'], rows, {
      width: 10,
      shrink: { 0: { min: 10 }, 1: { min: 8 } },
    }).split('\n');
    expect(floor).toBe(`${'x'.repeat(9)}…  ${'y'.repeat(7)}…  fixed`);
  });
});
