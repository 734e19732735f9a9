import { describe, expect, it } from 'vitest';
import { replicatedTables } from '../../../src/sync/replicated-tables.js';
import { SCOPES, scopeOf } from '../../../src/sync/protocol/scopes.js';
import { tempNode } from '../../support/temp-node.js';

describe('scopes', () => {
  it('every replicated table of the schema has exactly one scope, and the list names no table the schema lacks', () => {
    const tables = replicatedTables(tempNode('loyaltyd-scopes-').node.db);
    expect(tables.filter((table) => scopeOf(table) === undefined)).toEqual([]);
    expect(Object.keys(SCOPES).filter((table) => !tables.includes(table))).toEqual([]);
  });

  it('a name that is not a table, even one every object has, has no scope', () => {
    expect(scopeOf('constructor')).toBeUndefined();
    expect(scopeOf('nodes')).toBeUndefined();
  });
});
