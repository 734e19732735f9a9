/**
 * Streams the records of an import file with the line number each starts on: NDJSON (one
 * JSON object per line) or CSV with a header row, told apart by the file name.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { CsvRecordReader, fieldPaths, recordFromCells } from './csv.js';

export interface SourceRecord {
  line: number;
  /** The parsed record, or the reason it could not be parsed. */
  value: Record<string, unknown> | { unreadable: string };
  /** CSV cells are all text; the importer may read numbers and booleans out of them. */
  fromText: boolean;
}

export type FileFormat = 'ndjson' | 'csv';

export function formatOf(file: string): FileFormat {
  return /\.csv$/i.test(file) ? 'csv' : 'ndjson';
}

/**
 * `progress.bytesRead` follows how far into the file reading has come. A CSV header naming
 * something other than a field path (`__proto__`, an empty name between dots) throws.
 */
export async function* readRecords(
  file: string,
  format: FileFormat,
  progress: { bytesRead: number } = { bytesRead: 0 },
): AsyncGenerator<SourceRecord> {
  const stream = createReadStream(file, 'utf8');
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNumber = 0;
  const csv = new CsvRecordReader();
  let header: string[][] | undefined;
  let recordStart = 0;
  for await (const line of lines) {
    lineNumber += 1;
    progress.bytesRead = stream.bytesRead;
    if (format === 'ndjson') {
      if (line.trim() === '') continue;
      yield { line: lineNumber, value: parseJsonObject(line), fromText: false };
      continue;
    }
    if (!csv.open) recordStart = lineNumber;
    const cells = csv.push(line);
    if (!cells) continue;
    if (!header) {
      header = fieldPaths(cells.map((cell) => cell.trim().replace(/^\uFEFF/, '')));
      continue;
    }
    if (cells.length === 1 && cells[0] === '') continue;
    yield { line: recordStart, value: recordFromCells(header, cells), fromText: true };
  }
  if (csv.open) yield { line: recordStart, value: { unreadable: 'a quoted field is not closed' }, fromText: true };
}

function parseJsonObject(line: string): SourceRecord['value'] {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    return { unreadable: 'the line is not a JSON object' };
  } catch (error) {
    return { unreadable: `the line is not valid JSON: ${(error as Error).message}` };
  }
}
