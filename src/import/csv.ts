/**
 * CSV records (RFC 4180: comma separated, double-quoted fields with doubled quotes, quoted
 * fields may span lines). A header row names the fields; dotted names build nested
 * objects (`personal_information.first_name`), and empty cells are left out.
 */

/** Splits one complete CSV record into cells; undefined while a quoted field is still open. */
export function splitRecord(text: string): string[] | undefined {
  // Most records quote nothing; splitting them whole also keeps each cell one flat string
  // rather than a chain of one-character pieces, which a batch of records would hold on to.
  if (!text.includes('"')) return text.split(',');
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const character = text[i]!;
    if (quoted) {
      if (character === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      cells.push(cell);
      cell = '';
    } else cell += character;
  }
  if (quoted) return undefined;
  cells.push(cell);
  return cells;
}

export function recordFromCells(header: string[], cells: string[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  header.forEach((name, index) => {
    const value = cells[index];
    if (value === undefined || value === '') return;
    const path = name.split('.');
    let node = record;
    for (const key of path.slice(0, -1)) {
      if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[path[path.length - 1]!] = value;
  });
  return record;
}
