/**
 * Vitest's setup of every test file: each SQL text the process prepares on SQLite is written,
 * once, to the run's statement log (test/support/statement-log-setup.ts) with the source
 * files of src/ its call came through, and, when it holds fragments the code spells for each
 * engine (`spelt`, src/db/dialect.ts), with those fragments in PostgreSQL's words. test/db/statement-parity.test.ts, which runs after the
 * suite, prepares each on PostgreSQL. Statements a worker thread prepares (a store's writer)
 * are not seen here; their code runs on the event loop too in the tests that start no thread.
 */
import Database from 'better-sqlite3';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { inject } from 'vitest';
import { TWINS } from '../../src/db/dialect.js';

export interface LoggedStatement {
  sql: string;
  /** The statement with each SQLite fragment it holds replaced by its PostgreSQL twin; absent when it holds none. */
  postgres?: string;
  /** The files of src/ on the stack of the first prepare, innermost first. */
  sources: string[];
}

const PATCHED = Symbol.for('loyaltyd.test.statement-log');
const prototype = Database.prototype as unknown as { prepare(this: unknown, sql: string): unknown; [PATCHED]?: true };
const folder = inject('statementLogDir');

if (folder !== undefined && !prototype[PATCHED]) {
  prototype[PATCHED] = true;
  const original = prototype.prepare;
  const seen = new Set<string>();
  const file = join(folder, `${process.pid}-${threadId}.jsonl`);
  prototype.prepare = function prepare(this: unknown, sql: string) {
    if (!seen.has(sql)) {
      seen.add(sql);
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 60;
      const stack = new Error().stack ?? '';
      Error.stackTraceLimit = limit;
      const sources = [...stack.matchAll(/\/(src\/[\w./-]+\.ts):\d+/g)].map((match) => match[1]!);
      const postgres = inPostgresWords(sql);
      appendFileSync(
        file,
        `${JSON.stringify({ sql, ...(postgres !== sql ? { postgres } : {}), sources: [...new Set(sources)] } satisfies LoggedStatement)}\n`,
      );
    }
    return original.call(this, sql);
  };
}

/** `sql` with every twinned fragment it holds in PostgreSQL's words, the longest fragments first. */
function inPostgresWords(sql: string): string {
  let words = sql;
  for (const [sqlite, postgres] of [...TWINS].sort(([a], [b]) => b.length - a.length)) {
    if (words.includes(sqlite)) words = words.replaceAll(sqlite, postgres);
  }
  return words;
}
