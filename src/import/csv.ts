/**
 * CSV records (RFC 4180: comma separated, double-quoted fields with doubled quotes, quoted
 * fields may span lines). A header row names the fields; dotted names build nested
 * objects (`personal_information.first_name`), and empty cells are left out.
 */

/**
 * Reads CSV records one line at a time. A record whose quoted field spans lines is carried
 * over from line to line, so each line is scanned once however long the field stays open.
 */
export class CsvRecordReader {
  private cells: string[] = [];
  private cell = '';
  private quoted = false;

  /** True while a quoted field is open: the next line continues the record. */
  get open(): boolean {
    return this.quoted;
  }

  /** Reads one line; returns the record's cells once the line completes it. */
  push(line: string): string[] | undefined {
    // Most records quote nothing; splitting them whole also keeps each cell one flat string
    // rather than a chain of pieces, which a batch of records would hold on to.
    if (!this.quoted && !line.includes('"')) return line.split(',');
    let from = 0;
    for (let i = 0; i < line.length; i += 1) {
      const character = line[i];
      if (this.quoted) {
        if (character !== '"') continue;
        this.cell += line.slice(from, i);
        if (line[i + 1] === '"') {
          this.cell += '"';
          i += 1;
        } else this.quoted = false;
        from = i + 1;
      } else if (character === '"') {
        this.cell += line.slice(from, i);
        this.quoted = true;
        from = i + 1;
      } else if (character === ',') {
        this.cells.push(this.cell + line.slice(from, i));
        this.cell = '';
        from = i + 1;
      }
    }
    this.cell += line.slice(from);
    if (this.quoted) {
      this.cell += '\n';
      return undefined;
    }
    const cells = [...this.cells, this.cell];
    this.cells = [];
    this.cell = '';
    return cells;
  }
}

/** Names that would reach an object's prototype rather than a field of the record. */
const NOT_FIELDS = new Set(['__proto__', 'constructor', 'prototype']);

/** The header's field paths; throws naming the first header name that is not a plain dotted field path. */
export function fieldPaths(header: string[]): string[][] {
  return header.map((name, index) => {
    const path = name.split('.');
    const bad = path.find((key) => key === '' || NOT_FIELDS.has(key));
    if (bad !== undefined) {
      throw new Error(
        `CSV header column ${index + 1} "${name}" is not a field path: ${bad === '' ? 'it has an empty name between dots' : `"${bad}" is not a field name`}`,
      );
    }
    return path;
  });
}

export function recordFromCells(paths: string[][], cells: string[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  paths.forEach((path, index) => {
    const value = cells[index];
    if (value === undefined || value === '') return;
    let node = record;
    for (const key of path.slice(0, -1)) {
      if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[path[path.length - 1]!] = value;
  });
  return record;
}
