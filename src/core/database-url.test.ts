import { describe, expect, it } from 'vitest';
import { databaseProblem, redactUrl, serverUrlProblem } from './database-url.js';

describe('a database setting', () => {
  it('a PostgreSQL URL or a file path passes, whatever its query holds', () => {
    for (const ok of [
      'postgres://baton:secret@127.0.0.1:54329/baton',
      'postgresql://u@h/db',
      'postgres://u:p%40ss@h/db?sslmode=require&application_name=a@b',
      '/tmp/x/baton.db',
      'baton.db',
      'postgres/baton.db',
      'postgres-data/baton.db',
      'C:\\Users\\x\\baton.db',
    ])
      expect(databaseProblem(ok), ok).toBeNull();
  });

  it('anything that would become a SQLite file named after a URL is refused, with what to write', () => {
    expect(databaseProblem('postgres//u:p@h:5432/db')).toMatch(
      /^is not a PostgreSQL URL: write it postgres:\/\//,
    );
    expect(databaseProblem('postgres:/u:p@h/db')).toMatch(/^is not a PostgreSQL URL/);
    expect(databaseProblem('mysql://u:p@h/db')).toMatch(/^is a mysql:\/\/ URL/);
    expect(databaseProblem('http://127.0.0.1:7420')).toMatch(
      /a Baton server is named with --server \/ BATON_URL/,
    );
    expect(databaseProblem('127.0.0.1:54329')).toMatch(/^looks like a server's address/);
    expect(databaseProblem('u:p@db.example.com:5432/x')).toMatch(/^looks like a server's address/);
    expect(databaseProblem('postgres://team:p@ss#w/rd@127.0.0.1:54329/baton')).toMatch(
      /percent-encode them there \(@ is %40, # is %23, \/ is %2F\)/,
    );
  });

  it('a server URL must be a web address, not a database', () => {
    expect(serverUrlProblem('http://127.0.0.1:7420')).toBeNull();
    expect(serverUrlProblem('postgres://u:p@h/db')).toMatch(/^is a database URL/);
    expect(serverUrlProblem('postgres//u:p@h/db')).toMatch(/^is a database URL/);
    expect(serverUrlProblem('127.0.0.1:7420')).toMatch(/^must start with http:\/\/ or https:\/\//);
  });
});

describe('a URL said in a message', () => {
  it('never shows the password, also one a URL parser would cut short', () => {
    expect(redactUrl('postgres://baton:secret@h:5432/db')).toBe('postgres://baton:***@h:5432/db');
    expect(redactUrl('postgres://team:p@ss#w/rd@h:5432/db')).toBe('postgres://team:***@h:5432/db');
    expect(redactUrl('postgres//baton:secret@h/db')).toBe('postgres//baton:***@h/db');
    expect(redactUrl('u:secret@h:5432')).toBe('u:***@h:5432');
    expect(redactUrl('postgresql://u@h/db')).toBe('postgresql://u@h/db');
    expect(redactUrl('/tmp/baton.db')).toBe('/tmp/baton.db');
  });
});
