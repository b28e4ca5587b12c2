/**
 * A coverage threshold not met, in the words of the tools that enforce one: pytest-cov ("FAIL Required test
 * coverage of 85.0% not reached. Total coverage: 75.65%"), coverage.py's `--fail-under` ("Coverage failure: total of
 * 75 is less than fail-under=85"), jest ('Jest: "global" coverage threshold for lines (80%) not met: 75%') and
 * istanbul's reporters in nyc, c8 and vitest ("ERROR: Coverage for lines (75%) does not meet global threshold (80%)").
 * The line is its first group.
 */
export const coverageUnmet =
  /^[ \t]*(FAIL Required test coverage of [\d.]+% not reached\..*|Coverage failure: total of [\d.]+ is less than fail-under=[\d.]+|Jest: "[^"]+" coverage threshold for \w+ \([\d.]+%\) not met: .*|ERROR: Coverage for \w+ \([\d.]+%\) does not meet (?:global )?threshold \([\d.]+%\).*?)[ \t]*$/m;

/** Whether a failing test's name is the line of a coverage threshold not met (a run failed by it alone records it). */
export const isCoverageUnmet = (name: string): boolean => coverageUnmet.test(name);
