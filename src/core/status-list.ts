import { invalidInput } from './errors.js';
import { workflowStatuses, type WorkflowStatus } from './schemas/workflow.js';

const known = (s: string): s is WorkflowStatus => (workflowStatuses as readonly string[]).includes(s);

/** A comma-separated list of workflow statuses (`--status`, `?status=`); an unknown one is refused by name. */
export function statusList(text: string, where: string): WorkflowStatus[] {
  const list = text.split(',').map((s) => s.trim());
  const bad = list.find((s) => !known(s));
  if (bad !== undefined)
    throw invalidInput(`${where} "${bad}" is not one of ${workflowStatuses.join(', ')}`, {
      issues: [{ path: where, message: `unknown status ${bad}` }],
    });
  return list.filter(known);
}
