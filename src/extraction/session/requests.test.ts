import { describe, expect, it } from 'vitest';
import { promptRequest } from './requests.js';

describe('promptRequest: the request in a prompt a hook receives', () => {
  it('keeps typed words, and a path that starts with a slash', () => {
    expect(promptRequest('Fix the login bug')).toBe('Fix the login bug');
    expect(promptRequest('/src/app.ts fails to build, fix it')).toBe('/src/app.ts fails to build, fix it');
  });

  it('drops built-in slash commands, with or without arguments', () => {
    for (const p of ['/clear', '/compact', '/compact keep the test plan', '/model opus', '  /exit  '])
      expect(promptRequest(p)).toBeNull();
  });

  it("keeps only a custom command's arguments, as the transcript import does", () => {
    expect(promptRequest('/prime & read the handover doc')).toBe('& read the handover doc');
    expect(promptRequest('/handgemacht:create-beads websearch credo\n\nMaybe igniter?')).toBe(
      'websearch credo\n\nMaybe igniter?',
    );
    expect(promptRequest('/review-pr')).toBeNull();
  });

  it('asks nothing when only reminders, notifications or an interruption are left', () => {
    expect(promptRequest('')).toBeNull();
    expect(promptRequest('   \n ')).toBeNull();
    expect(promptRequest('<system-reminder>x</system-reminder>')).toBeNull();
    expect(promptRequest('<task-notification>\n<task-id>1</task-id>\n</task-notification>')).toBeNull();
  });
});
