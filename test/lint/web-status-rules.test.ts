import { describe, expect, it } from 'vitest';
import { workflowStatuses } from '../../src/core/schemas/workflow.js';
import { isResumable, isTerminal } from '../../src/core/workflow-machine.js';
import * as web from '../../web/src/api/status-rules.js';

describe("the dashboard's status rules", () => {
  it('say what the core says for every workflow status', () => {
    for (const s of workflowStatuses) {
      expect({ s, terminal: web.isTerminal(s), resumable: web.isResumable(s) }).toEqual({
        s,
        terminal: isTerminal(s),
        resumable: isResumable(s),
      });
    }
  });
});
