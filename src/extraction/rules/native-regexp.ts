/**
 * The rules' largest regular expressions, compiled once to machine code. V8 runs an expression's first uses through
 * its bytecode interpreter and compiles it to machine code on a later use; for these expressions (hundreds of
 * alternatives, case-insensitive) the bytecode costs several times the machine code, and a short-lived process (the
 * hook that imports a turn) pays both: about 100 ms of compilation in all (`npm run bench -- hooks`). V8 goes straight
 * to machine code for an expression whose first subject is long (1,000 characters or more), so one test on such a
 * string when the module loads settles it; for any other engine the test is only a test.
 */
const long = ' '.repeat(1000);

export function native<T extends RegExp>(re: T): T {
  re.test(long);
  re.lastIndex = 0;
  return re;
}
