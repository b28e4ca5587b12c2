import type { ApiError } from '../api/index.js';

/** An API error in a panel: what failed and Baton's message. */
export function ErrorNote({ error, what }: { error: ApiError; what: string }) {
  return (
    <div className="error-note" role="alert">
      Could not load {what}: {error.message}
      {error.code !== 'network' && <code className="muted"> ({error.code})</code>}
    </div>
  );
}
