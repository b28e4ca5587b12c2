import type Database from 'better-sqlite3';

/** The largest statement: 64 rows (at 10 columns, far under SQLite's 32,766 parameters). */
const MAX_ROWS = 64;

/**
 * An INSERT of many rows per statement: one call into SQLite for up to 64 rows instead of one per row. Row counts
 * are split into powers of two (100 = 64 + 32 + 4), so at most seven statements per table are ever prepared.
 * SQLite applies the rows of one statement in order, so an upsert that meets the same key twice leaves what
 * writing the rows one by one would leave.
 */
export class MultiRowInsert {
  private readonly statements = new Map<number, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    /** `INSERT INTO t (a, b)` */
    private readonly head: string,
    private readonly width: number,
    /** What follows the VALUES list, e.g. an ON CONFLICT clause. */
    private readonly tail = '',
  ) {}

  /** Inserts `values.length / width` rows given as one flat list of column values. */
  run(values: readonly unknown[]): void {
    let rows = values.length / this.width;
    let at = 0;
    while (rows > 0) {
      const n = Math.min(MAX_ROWS, 2 ** Math.floor(Math.log2(rows)));
      const end = at + n * this.width;
      this.statement(n).run(at === 0 && end === values.length ? values : values.slice(at, end));
      at = end;
      rows -= n;
    }
  }

  private statement(rows: number): Database.Statement {
    let s = this.statements.get(rows);
    if (!s) {
      const row = `(${Array.from({ length: this.width }, () => '?').join(', ')})`;
      s = this.db.prepare(
        `${this.head} VALUES ${Array.from({ length: rows }, () => row).join(', ')} ${this.tail}`,
      );
      this.statements.set(rows, s);
    }
    return s;
  }
}
