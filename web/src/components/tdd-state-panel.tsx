import type { Snapshot } from '../api/index.js';
import { StatusBadge } from './status-badge.js';

/** The TDD state: phase, failing and expected-failing tests, the last run. */
export function TddStatePanel({ test }: { test: Snapshot['test_state'] }) {
  if (!test) return <p className="muted small">No test runs recorded.</p>;
  // the runner's count when its output named fewer (a long run's middle cut)
  const unnamed = Math.max(0, (test.failed ?? 0) - test.failing_tests.length);
  return (
    <div data-testid="tdd-state">
      <p>
        Phase <StatusBadge status={`tdd_${test.phase}`} title="TDD phase" />
        {test.last_test_command && (
          <span className="muted small">
            {' '}
            last run <code>{test.last_test_command}</code>
          </span>
        )}
      </p>
      {(test.failing_tests.length > 0 || unnamed > 0) && (
        <div className="small">
          Failing:{' '}
          {test.failing_tests.map((t) => (
            <code key={t}>{t} </code>
          ))}
          {unnamed > 0 && (
            <span className="muted">
              {test.failing_tests.length ? 'and ' : ''}
              {unnamed} not named in the output read
            </span>
          )}
        </div>
      )}
      {test.expected_failures.length > 0 && (
        <div className="small">
          Expected to fail:{' '}
          {test.expected_failures.map((t) => (
            <code key={t}>{t} </code>
          ))}
        </div>
      )}
      {test.last_test_output_summary && <pre className="output">{test.last_test_output_summary}</pre>}
    </div>
  );
}
