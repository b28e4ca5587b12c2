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
