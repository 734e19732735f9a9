/**
 * The repositories write SQLite's placeholders: `?` for positional parameters and `@name` for
 * named ones. PostgreSQL numbers them (`$1`). The text is scanned once, when a statement is
 * prepared, and placeholders inside string literals, quoted names and comments are left alone.
 */
export interface NumberedSql {
  text: string;
  /** How many parameters the statement takes. */
  count: number;
  /** The names of `@name` parameters in their numbers' order; undefined for positional ones. */
  names: string[] | undefined;
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

export function numberPlaceholders(sql: string): NumberedSql {
  let text = '';
  let positional = 0;
  const names: string[] = [];
  let at = 0;
  while (at < sql.length) {
    const char = sql[at]!;
    const skipped = quotedOrCommentEnd(sql, at);
    if (skipped > at) {
      text += sql.slice(at, skipped);
      at = skipped;
    } else if (char === '?') {
      text += `$${++positional}`;
      at += 1;
    } else if (char === '@' && nameAt(sql, at + 1)) {
      const name = nameAt(sql, at + 1)!;
      if (!names.includes(name)) names.push(name);
      text += `$${names.indexOf(name) + 1}`;
      at += 1 + name.length;
    } else {
      text += char;
      at += 1;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error(`a statement mixes ? and @name parameters: ${sql}`);
  return { text, count: positional || names.length, names: names.length > 0 ? names : undefined };
}

function nameAt(sql: string, at: number): string | undefined {
  NAME.lastIndex = at;
  return NAME.test(sql) ? sql.slice(at, NAME.lastIndex) : undefined;
}

/** Where the literal, quoted name or comment starting at `at` ends; `at` itself when none starts there. */
function quotedOrCommentEnd(sql: string, at: number): number {
  const char = sql[at];
  if (char === "'" || char === '"') {
    let end = at + 1;
    while (end < sql.length) {
      if (sql[end] === char) {
        if (sql[end + 1] !== char) return end + 1;
        end += 2;
      } else end += 1;
    }
    return sql.length;
  }
  if (char === '-' && sql[at + 1] === '-') {
    const end = sql.indexOf('\n', at);
    return end < 0 ? sql.length : end;
  }
  if (char === '/' && sql[at + 1] === '*') {
    const end = sql.indexOf('*/', at + 2);
    return end < 0 ? sql.length : end + 2;
  }
  return at;
}
