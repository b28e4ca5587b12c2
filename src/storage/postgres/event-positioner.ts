/**
 * Store-wide event positions on PostgreSQL without a lock on the write path: a commit-order positioner.
 *
 * Writers take no store-wide lock. An appending transaction locks only its workflow's row (the version check,
 * `UPDATE workflows ... WHERE version = $expected`) and inserts its events with `entry` (a `BIGSERIAL`: insertion
 * order) and `position` NULL. The public `position` that live subscribers follow (`readEventsSince`, the REST and
 * WebSocket `since` cursors) is handed out afterwards by `baton_position_events()`, which every follower calls
 * before it reads: under the row lock of the one-row `event_positioner` table it numbers every event it can see
 * that has no position yet, in `entry` order, from the counter `event_positioner.last` upwards, and commits.
 *
 * Why a follower reading `position > cursor ORDER BY position` never misses or reorders an event:
 * 1. Positioner runs are serialised by the `event_positioner` row lock and each commits before the next one gets
 *    that lock. A run reads the counter (`FOR UPDATE` re-reads the newest version after the wait) and then, in a
 *    new statement with a new snapshot, sees every earlier run's numbers; it hands out only numbers above the
 *    counter and raises the counter. So numbers grow with the order of the runs, and no number is used twice.
 * 2. A run numbers only committed events (it can see nothing else); an event committed later is numbered by a
 *    later run, above every number handed out before. A slow transaction cannot fill a gap below a cursor: it has
 *    no position until after it commits.
 * 3. A follower's snapshot sees a prefix of the runs: a run it sees finished after every earlier run did. So the
 *    positions it sees are exactly the numbers of those runs, and every number still to come is above them all.
 * 4. Per workflow, the row lock makes commits of one workflow one after the other: the later transaction inserts
 *    its events (and draws their `entry`) only after the earlier one committed. Within a run `entry` order is
 *    therefore `seq` order; across runs commit order is. A transaction's events become visible together, so
 *    they are numbered by one run.
 * Writers pay nothing for this (the positioner's work is one UPDATE per follower poll, off the commit path);
 * until some follower reads, new events simply wait without a position (`readEvents` by `seq` does not need it).
 * Rows written before this migration keep their position (`position = entry`); the counter starts above every
 * value the old sequence handed out, so cursors held by clients stay valid.
 */
export const POSITIONER_MIGRATION = `
  ALTER TABLE events RENAME COLUMN position TO entry;
  ALTER TABLE events ADD COLUMN position BIGINT;
  UPDATE events SET position = entry;
  CREATE UNIQUE INDEX events_position ON events (position) WHERE position IS NOT NULL;
  CREATE INDEX events_unpositioned ON events (entry) WHERE position IS NULL;
  CREATE TABLE event_positioner (only_row BOOLEAN PRIMARY KEY DEFAULT true CHECK (only_row), last BIGINT NOT NULL);
  INSERT INTO event_positioner (last)
    SELECT greatest((SELECT coalesce(max(entry), 0) FROM events), (SELECT last_value FROM events_position_seq));
  CREATE FUNCTION baton_position_events() RETURNS bigint LANGUAGE plpgsql AS $fn$
  DECLARE
    base bigint;
    top bigint;
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM events WHERE position IS NULL) THEN
      RETURN 0;
    END IF;
    SELECT last INTO base FROM event_positioner FOR UPDATE;
    WITH todo AS (
      SELECT entry, row_number() OVER (ORDER BY entry) AS n FROM events WHERE position IS NULL
    ), numbered AS (
      UPDATE events e SET position = base + todo.n FROM todo WHERE e.entry = todo.entry RETURNING e.position
    )
    SELECT max(position) INTO top FROM numbered;
    IF top IS NULL THEN
      RETURN 0;
    END IF;
    UPDATE event_positioner SET last = top;
    RETURN top - base;
  END
  $fn$;`;

/** Numbers the committed events that have no position yet (see above); how many numbers it handed out. */
export const POSITION_EVENTS_SQL = 'SELECT baton_position_events() AS n';
