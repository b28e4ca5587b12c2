import { z } from 'zod';

/**
 * A tool's arguments: these and no other. An unknown one is refused, naming it and the ones the tool takes: dropped, a
 * misnamed argument (`depends_on` for `deps`) would let the call succeed without what the agent meant by it. Only the
 * arguments object is held to this: what the MCP client adds to a call (`_meta`, its progress token) sits beside it.
 */
export function argsOf<S extends z.ZodRawShape>(tool: string, shape: S) {
  const takes = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `${tool} has no argument ${issue.keys.join(', ')}; it takes ${takes}`
        : undefined,
  });
}

/**
 * A whole-number argument from `min` up: refused when it is not an integer, listed in tools/list as an integer with
 * that minimum and no maximum. Zod lists every integer with the bounds of a safe integer (±9007199254740991), which
 * every agent then reads in its tool list for nothing; the bounds stay in force when the call is checked.
 */
export const wholeNumber = (min: number) => z.number().int().min(min).meta({ maximum: undefined });
