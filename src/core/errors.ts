/**
 * The one error type of Baton. Every failure carries a stable string `code`; the edges turn codes into exit
 * codes, HTTP statuses or MCP errors. The marker symbol lets `isInstance` work across package copies.
 */
const marker = Symbol.for('baton.error');

export const errorCodes = [
  'invalid_input',
  'not_found',
  'invalid_transition',
  'conflict',
  'ambiguous',
  'unavailable',
  'internal',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export class BatonError extends Error {
  readonly [marker] = true;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'BatonError';
    this.code = code;
    this.details = details;
  }

  static isInstance(value: unknown): value is BatonError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}

export const invalidInput = (message: string, details?: Record<string, unknown>) =>
  new BatonError('invalid_input', message, details);
export const notFound = (message: string, details?: Record<string, unknown>) =>
  new BatonError('not_found', message, details);
export const invalidTransition = (message: string, details?: Record<string, unknown>) =>
  new BatonError('invalid_transition', message, details);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new BatonError('conflict', message, details);

type Issue = { path: readonly PropertyKey[]; message: string };

/** Describe a zod failure briefly (its first three issues, each at its path), for a skipped line or an error. */
export function describeIssues(issues: readonly Issue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Any failure in one line a person can read: a schema check's failure (whose message is its issues as JSON, a first
 * line of "[") by its issues, another by its message's first line.
 */
export function errorLine(e: unknown): string {
  const issues = (e as { issues?: unknown } | null)?.issues;
  if (Array.isArray(issues) && issues.length > 0) return `invalid data: ${describeIssues(issues as Issue[])}`;
  const message = e instanceof Error ? e.message : String(e);
  return message.split('\n')[0] || String(e);
}
