/** Statements prepared once per SQL text and kept, as the hot paths need. */
import type { Statement } from 'better-sqlite3';
import type { Db } from './open.js';

export class Statements {
  private readonly prepared = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  get(sql: string): Statement {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.prepared.set(sql, statement);
    }
    return statement;
  }
}
