/**
 * A snapshot's lines as bytes (src/sync/store/snapshot-lines.ts): row lines come as runs of at
 * most 1,000, the other lines as text, empty lines skipped; a batch of runs is the JSON array
 * of its rows, multibyte characters and escaped newlines inside values kept, and SQLite reads it
 * as the rows that were written.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { RowBatch, snapshotLines, type JsonLine, type RowRun } from '../../../src/sync/store/snapshot-lines.js';

const rows = Array.from({ length: 2500 }, (_, index) => [`id-${index}`, `Žluťoučký kůň ${index}`, index % 2 === 0 ? 'two\nlines' : null, index]);
const text = Buffer.from(
  [
    JSON.stringify({ position: 1 }),
    JSON.stringify({ table: 't', columns: ['id', 'name', 'note', 'n'] }),
    ...rows.map((row) => JSON.stringify(row)),
    '',
    '{"end":true}',
  ]
    .map((line) => `${line}\n`)
    .join(''),
);

describe("a snapshot's lines as bytes", () => {
  it('come as runs of rows of at most 1,000, and the other lines as text', () => {
    const pieces = [...snapshotLines(text)];
    expect(pieces.map((piece) => (piece.kind === 'rows' ? piece.rows : 'json'))).toEqual(['json', 'json', 1000, 1000, 500, 'json']);
    expect(JSON.parse((pieces[5] as JsonLine).text)).toEqual({ end: true });
    expect(JSON.parse((pieces[4] as RowRun).last.toString())).toEqual(rows[2499]);
  });

  it('make a batch SQLite reads as the rows written', () => {
    const batch = new RowBatch();
    for (const piece of snapshotLines(text)) if (piece.kind === 'rows') batch.add(piece);
    expect(batch.rows).toBe(2500);
    expect(batch.lastRow()).toEqual(rows[2499]);
    const db = new Database(':memory:');
    const read = db
      .prepare<[Buffer], { id: string; name: string; note: string | null; n: number }>(
        'SELECT value ->> 0 AS id, value ->> 1 AS name, value ->> 2 AS note, value ->> 3 AS n FROM jsonb_each(CAST(? AS TEXT))',
      )
      .all(batch.arrays());
    expect(read.map(({ id, name, note, n }) => [id, name, note, n])).toEqual(rows);
    db.close();
  });
});
