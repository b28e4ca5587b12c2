import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { BatonError, type ErrorCode } from '../../core/index.js';

/** HTTP statuses of the error codes (the server's one mapping, like the CLI's exit codes). */
export const httpStatus: Record<ErrorCode, ContentfulStatusCode> = {
  invalid_input: 400,
  not_found: 404,
  invalid_transition: 409,
  conflict: 409,
  ambiguous: 409,
  unavailable: 503,
  internal: 500,
};

/** The body of every error response: `{ error: { code, message, ...details } }`, never a stack. */
export function errorBody(
  code: ErrorCode | 'unauthorized' | 'forbidden' | 'payload_too_large',
  message: string,
  details = {},
) {
  return { error: { ...details, code, message } };
}

export function sendError(c: Context, e: BatonError) {
  return c.json(errorBody(e.code, e.message, e.details), httpStatus[e.code]);
}

/** `issues` as the failing field paths: `tasks.0.id: Invalid string`. */
export function validationError(error: ZodError, where: string): BatonError {
  const issues = error.issues.map((i) => ({
    path: [where, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  const first = issues[0];
  return new BatonError(
    'invalid_input',
    `invalid ${where}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    { issues: first ? issues : [] },
  );
}

/** The app's onError: Baton errors keep their code; anything else is a 500 without internals. */
export function onError(e: Error, c: Context) {
  if (BatonError.isInstance(e)) return sendError(c, e);
  if (e instanceof HTTPException) {
    const status = e.status as ContentfulStatusCode;
    const message = /malformed json/i.test(e.message)
      ? 'malformed JSON in the request body; send a JSON object with Content-Type: application/json'
      : status === 415
        ? 'the request body is not JSON: send a JSON object with Content-Type: application/json'
        : e.message || 'bad request';
    const code = status === 413 ? 'payload_too_large' : status === 401 ? 'unauthorized' : 'invalid_input';
    return c.json(errorBody(status >= 500 ? 'internal' : code, message), status);
  }
  console.error(`baton serve: ${c.req.method} ${c.req.path}: ${e.stack ?? e.message}`);
  return c.json(errorBody('internal', 'internal server error; see the server log'), 500);
}
