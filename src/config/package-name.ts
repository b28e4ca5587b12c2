/**
 * The npm package Baton is published as: what `npx` runs when `baton` is not on the PATH. One constant for the
 * source; the plugin's launcher (plugins/baton/scripts/baton.mjs) holds its own copy and a test keeps the two and
 * package.json the same.
 */
export const PACKAGE_NAME = 'baton';
