import { useState, type FormEvent } from 'react';

/** Asks once for the bearer token (`baton token` prints it); a 401 later asks again. */
export function TokenForm({ onToken, rejected }: { onToken: (token: string) => void; rejected: boolean }) {
  const [value, setValue] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) onToken(value.trim());
  };
  return (
    <main className="token-page">
      <form className="card token-form" onSubmit={submit} aria-label="sign in">
        <h1>Baton</h1>
        <p>
          Paste the server&apos;s token. On the machine running <code>baton serve</code>, print it with{' '}
          <code>baton token</code>.
        </p>
        {rejected && (
          <p className="error-note" role="alert">
            The server refused that token. Paste the current one from <code>baton token</code>.
          </p>
        )}
        <label htmlFor="token">Token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          autoFocus
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" className="btn btn-primary" disabled={!value.trim()}>
          Open the dashboard
        </button>
      </form>
    </main>
  );
}
