import { describe, expect, it } from 'vitest';
import { replicatedTables } from '../../../src/sync/replicated-tables.js';
import { SCOPES, STORE_COLUMNS, scopeOf } from '../../../src/sync/protocol/scopes.js';
import { tempNode } from '../../support/temp-node.js';

describe('scopes', () => {
  it('every replicated table of the schema has exactly one scope, and the list names no table the schema lacks', () => {
    const tables = replicatedTables(tempNode('loyaltyd-scopes-').node.db);
    expect(tables.filter((table) => scopeOf(table) === undefined)).toEqual([]);
    expect(Object.keys(SCOPES).filter((table) => !tables.includes(table))).toEqual([]);
  });

  it("every table of the store scope names the column of its rows' store, and that column is the table's", () => {
    const db = tempNode('loyaltyd-scopes-').node.db;
    const storeTables = Object.keys(SCOPES).filter((table) => scopeOf(table) === 'store');
    expect(storeTables.length).toBeGreaterThan(0);
    expect(Object.keys(STORE_COLUMNS).sort()).toEqual(storeTables.sort());
    for (const table of storeTables) {
      expect(db.prepare<[string], string>('SELECT name FROM pragma_table_info(?)').pluck().all(table)).toContain(STORE_COLUMNS[table]);
    }
  });

  it('a name that is not a table, even one every object has, has no scope', () => {
    expect(scopeOf('constructor')).toBeUndefined();
    expect(scopeOf('nodes')).toBeUndefined();
  });
});
