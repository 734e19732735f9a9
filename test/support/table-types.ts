/**
 * The TypeScript row types of the database's tables (src/db/tables.ts), read from the schema
 * the migrations make: `npm run tables` writes them, test/unit/table-types.test.ts checks the
 * file is current. A column that is NOT NULL without a default is required in a written row;
 * `hlc` and `last_change` are the write path's to fill.
 */
import Database from 'better-sqlite3';
import { migrate } from '../../src/db/migrate.js';

interface Column {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

const TS_TYPE: Record<string, string> = { TEXT: 'string', INTEGER: 'number', REAL: 'number', BLOB: 'Buffer', ANY: 'unknown' };

export function tableTypes(): string {
  const db = new Database(':memory:');
  try {
    migrate(db);
    const tables = db
      .prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all();
    const body = tables.map((table) => {
      const columns = db.prepare<[], Column>(`PRAGMA table_info(${table})`).all();
      const fields = columns.map((column) => {
        const type = TS_TYPE[column.type.toUpperCase()] ?? 'unknown';
        const required = column.notnull === 1 && column.dflt_value === null;
        return `    ${column.name}${required ? '' : '?'}: ${type}${column.notnull === 1 ? '' : ' | null'};`;
      });
      return `  ${table}: {\n${fields.join('\n')}\n  };`;
    });
    return `/**
 * Every table's columns as a written row holds them, generated from the migrations by
 * \`npm run tables\` (test/support/table-types.ts); test/unit/table-types.test.ts keeps this
 * file equal to the schema. A write naming a column a table lacks fails \`tsc\`.
 */
export interface Tables {
${body.join('\n')}
}
`;
  } finally {
    db.close();
  }
}
