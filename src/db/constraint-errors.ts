/**
 * Which key a refused write broke, on either engine: SQLite names it in its error's `code`
 * (`SQLITE_CONSTRAINT_UNIQUE`), PostgreSQL by SQLSTATE (23505, a unique key or primary key;
 * 23503, a foreign key).
 */
const UNIQUE = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY', '23505']);
const FOREIGN_KEY = new Set(['SQLITE_CONSTRAINT_FOREIGNKEY', '23503']);

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** A unique or primary key already held by another row. */
export function isUniqueViolation(error: unknown): boolean {
  return UNIQUE.has(codeOf(error) as string);
}

/** A row naming a parent that does not exist. */
export function isForeignKeyViolation(error: unknown): boolean {
  return FOREIGN_KEY.has(codeOf(error) as string);
}
