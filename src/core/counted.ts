/** A count with its noun, singular for one: "1 error", "2 errors"; `many` for a plural that is not the noun + s. */
export const counted = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
