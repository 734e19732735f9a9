/**
 * A snapshot's NDJSON (the `columns` format, src/sync/hub/snapshot-reading.ts) as the bytes it
 * arrives in. A bootstrap reads millions of row lines: it hands SQLite their bytes as one JSON
 * array a batch, `[` and the lines with each ending newline made a comma, the last a `]`,
 * without a JavaScript string of each line or of the batch: decoding, splitting and joining
 * the text would take a tenth of a bootstrap's time (test/bench/README.md). A newline byte only ends
 * a line: JSON escapes the character inside a string, and no byte of a multibyte UTF-8
 * character is one.
 */

const NEWLINE = 0x0a;
const COMMA = 0x2c;
const OPENING_BRACKET = 0x5b;
const CLOSING_BRACKET = 0x5d;

/** Rows of a run at most, so that a batch passes its size by less than this. */
const RUN_ROWS = 1000;

/** A run of whole row lines, each a JSON array of values, the last of them `last`. */
export interface RowRun {
  kind: 'rows';
  bytes: Buffer;
  rows: number;
  last: Buffer;
}

/** A line that is not a row: the header, a table's opening, the end. */
export interface JsonLine {
  kind: 'json';
  text: string;
}

/** The lines of `text`, whole lines all: the runs of row lines, and each other line as text. */
export function* snapshotLines(text: Buffer): Generator<RowRun | JsonLine> {
  let run: RunBounds | undefined;
  for (let at = 0; at < text.length;) {
    const end = text.indexOf(NEWLINE, at) + 1 || text.length;
    if (text[at] === OPENING_BRACKET) {
      run ??= { from: at, rows: 0, last: at };
      run.rows += 1;
      run.last = at;
      if (run.rows === RUN_ROWS) {
        yield rowRun(text, run, end);
        run = undefined;
      }
    } else {
      if (run) yield rowRun(text, run, at);
      run = undefined;
      if (text[at] !== NEWLINE) yield { kind: 'json', text: text.toString('utf8', at, end) };
    }
    at = end;
  }
  if (run) yield rowRun(text, run, text.length);
}

/** Where a run of row lines starts, how many it holds, and where its last line starts. */
interface RunBounds {
  from: number;
  rows: number;
  last: number;
}

function rowRun(text: Buffer, run: RunBounds, end: number): RowRun {
  return { kind: 'rows', bytes: text.subarray(run.from, end), rows: run.rows, last: text.subarray(run.last, end) };
}

/** Row runs gathered for one load transaction. */
export class RowBatch {
  private runs: Buffer[] = [];
  private lastLine: Buffer | undefined;
  rows = 0;

  add(run: RowRun): void {
    this.runs.push(run.bytes);
    this.rows += run.rows;
    this.lastLine = run.last;
  }

  /** The batch's rows as the UTF-8 bytes of one JSON array of them. */
  arrays(): Buffer {
    const bytes = Buffer.concat([OPEN, ...this.runs]);
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) bytes[at] = COMMA;
    bytes[bytes.length - 1] = CLOSING_BRACKET;
    return bytes;
  }

  /** The batch's last row, parsed. */
  lastRow(): unknown {
    return JSON.parse(this.lastLine!.toString('utf8'));
  }
}

const OPEN = Buffer.from('[');
