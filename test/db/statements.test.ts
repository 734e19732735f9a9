/**
 * The statement cache keeps at most its capacity, dropping the least recently used text: texts
 * built from the columns a write or a pushed change names would otherwise grow it for ever.
 */
import { describe, expect, it } from 'vitest';
import { Statements, STATEMENTS_KEPT } from '../../src/db/statements.js';
import { tempNode } from '../support/temp-node.js';

const { node } = tempNode('loyaltyd-statements-');
/** A distinct text for each n, as a new column set makes one. */
const text = (n: number) => `SELECT ${n} AS n`;

describe('the statement cache', () => {
  it('keeps at most its capacity, dropping the least recently used statement', () => {
    const statements = new Statements(node.db, 3);
    const first = statements.get(text(1));
    const second = statements.get(text(2));
    statements.get(text(3));
    expect(statements.get(text(1))).toBe(first);
    statements.get(text(4));
    expect(statements.size).toBe(3);
    expect(statements.get(text(1))).toBe(first);
    expect(statements.get(text(2))).not.toBe(second);
    expect(statements.get(text(2)).get()).toEqual({ n: 2 });
  });

  it(`keeps ${STATEMENTS_KEPT} statements by default, however many texts it is asked for`, () => {
    const statements = new Statements(node.db);
    for (let n = 0; n < STATEMENTS_KEPT + 500; n += 1) statements.get(text(n));
    expect(statements.size).toBe(STATEMENTS_KEPT);
    expect(statements.get(text(STATEMENTS_KEPT + 499)).get()).toEqual({ n: STATEMENTS_KEPT + 499 });
  });
});
