/**
 * Statements prepared once per SQL text and kept, as the hot paths need: at most `capacity`
 * of them, the least recently used one dropped for a new text. Some texts are built from what
 * a write or a pushed change names (the columns of a row), so without a bound the cache would
 * grow with every new column set a node is sent.
 */
import type { Statement } from './engine.js';
import type { Db } from './open.js';

/** More than the distinct texts a node's own writes and reads prepare, so those stay kept. */
export const STATEMENTS_KEPT = 1000;

export class Statements {
  /** In order of use, the least recent first: a Map iterates in insertion order. */
  private readonly prepared = new Map<string, Statement>();

  constructor(
    private readonly db: Db,
    private readonly capacity = STATEMENTS_KEPT,
  ) {}

  get(sql: string): Statement {
    let statement = this.prepared.get(sql);
    if (statement) {
      this.prepared.delete(sql);
    } else {
      statement = this.db.prepare(sql);
      if (this.prepared.size >= this.capacity) this.prepared.delete(this.prepared.keys().next().value!);
    }
    this.prepared.set(sql, statement);
    return statement;
  }

  /** How many statements are kept. */
  get size(): number {
    return this.prepared.size;
  }
}
