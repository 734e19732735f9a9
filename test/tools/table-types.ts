/**
 * The TypeScript types of the database's tables (src/db/tables.generated.ts), read from the
 * schema the migrations make: `npm run tables` writes them, test/unit/table-types.test.ts
 * checks the file is current.
 *
 * A written row (`Tables`): a column that is NOT NULL without a default is required; `hlc` and
 * `last_change` are the write path's to fill. A read row (`CustomersRow`, ...): every column,
 * as `SELECT *` returns it from a STRICT table; a column is `| null` unless it is NOT NULL or
 * the table's INTEGER PRIMARY KEY, which is the rowid and never null; a column whose CHECK
 * lists its values (`kind IN ('collection', 'redemption')`) is their union.
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

const tsType = (column: Column): string => TS_TYPE[column.type.toUpperCase()] ?? 'unknown';

/** `customer_source_records` → `CustomerSourceRecordsRow`. */
const rowTypeName = (table: string): string =>
  `${table
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Row`;

function writtenFields(columns: Column[]): string[] {
  return columns.map((column) => {
    const required = column.notnull === 1 && column.dflt_value === null;
    return `${column.name}${required ? '' : '?'}: ${tsType(column)}${column.notnull === 1 ? '' : ' | null'};`;
  });
}

/** The values a column's `CHECK (column IN (...))` allows, as a TypeScript union; undefined without one. */
function checkedValues(createSql: string, column: string): string | undefined {
  const values = new RegExp(`\\b${column} \\w+ [^,]*CHECK \\(${column} IN \\(([^)]*)\\)\\)`).exec(createSql)?.[1];
  return values
    ?.split(',')
    .map((value) => value.trim())
    .join(' | ');
}

function readFields(createSql: string, columns: Column[]): string[] {
  const rowid =
    columns.filter((column) => column.pk > 0).length === 1
      ? columns.find((column) => column.pk > 0 && column.type.toUpperCase() === 'INTEGER')
      : undefined;
  return columns.map((column) => {
    const type = checkedValues(createSql, column.name) ?? tsType(column);
    return `${column.name}: ${type}${column.notnull === 1 || column === rowid ? '' : ' | null'};`;
  });
}

export function tableTypes(): string {
  const db = new Database(':memory:');
  try {
    migrate(db);
    const tables = db
      .prepare<[], { name: string; sql: string }>(
        "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all()
      .map(({ name, sql }) => ({ table: name, sql, columns: db.prepare<[], Column>(`PRAGMA table_info(${name})`).all() }));
    const written = tables.map(
      ({ table, columns }) =>
        `  ${table}: {\n${writtenFields(columns)
          .map((field) => `    ${field}`)
          .join('\n')}\n  };`,
    );
    const read = tables.map(
      ({ table, sql, columns }) =>
        `export interface ${rowTypeName(table)} {\n${readFields(sql, columns)
          .map((field) => `  ${field}`)
          .join('\n')}\n}`,
    );
    return `/**
 * Every table's columns, generated from the migrations by \`npm run tables\`
 * (test/tools/table-types.ts); test/unit/table-types.test.ts keeps this file equal to the schema.
 * \`Tables\` types writes: a write naming a column a table lacks fails \`tsc\`. Each \`…Row\` is
 * what \`SELECT *\` returns from its table; a repo reading fewer columns picks from it.
 */
export interface Tables {
${written.join('\n')}
}

${read.join('\n\n')}

/** A table's columns as a LEFT JOIN reads them: null where the table had no row. */
export type LeftJoined<Row> = { [Column in keyof Row]: Row[Column] | null };
`;
  } finally {
    db.close();
  }
}
