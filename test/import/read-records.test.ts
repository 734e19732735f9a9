/** Reading CSV import files: each line read once, and a header names only plain field paths. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readRecords, type SourceRecord } from '../../src/import/read-records.js';
import { tempDir } from '../support/server.js';

function csvFile(text: string): string {
  const file = join(tempDir('loyaltyd-csv-'), 'records.csv');
  writeFileSync(file, text);
  return file;
}

async function readAll(file: string): Promise<SourceRecord[]> {
  const records: SourceRecord[] = [];
  for await (const record of readRecords(file, 'csv')) records.push(record);
  return records;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('CSV records', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, each record at the line it starts on', async () => {
    const records = await readAll(csvFile('id,address.street,note\n1,"Main St, 1","say ""hi"""\n2,"two\nlines",x\n3,plain,\n'));
    expect(records).toEqual([
      { line: 2, value: { id: '1', address: { street: 'Main St, 1' }, note: 'say "hi"' }, fromText: true },
      { line: 3, value: { id: '2', address: { street: 'two\nlines' }, note: 'x' }, fromText: true },
      { line: 5, value: { id: '3', address: { street: 'plain' } }, fromText: true },
    ]);
  });

  it('an unclosed quote in a 4,000-line file is one unreadable record at its line, and the text searched stays proportional to the file', async () => {
    const lines = ['id,name', '1,"never closed', ...Array.from({ length: 3_998 }, (_, index) => `${index + 2},customer number ${index + 2}`)];
    const text = `${lines.join('\n')}\n`;
    const file = csvFile(text);
    // The characters of every string searched for a quote or a comma while the file is read.
    let searched = 0;
    for (const method of ['includes', 'indexOf'] as const) {
      const original = String.prototype[method] as (this: string, ...args: unknown[]) => unknown;
      vi.spyOn(String.prototype, method).mockImplementation(function (this: string, ...args: unknown[]) {
        searched += this.length;
        return original.apply(this, args);
      } as never);
    }
    const records = await readAll(file);
    vi.restoreAllMocks();
    expect(records).toEqual([{ line: 2, value: { unreadable: 'a quoted field is not closed' }, fromText: true }]);
    expect(searched).toBeLessThanOrEqual(2 * text.length);
  });
});

describe('CSV header names', () => {
  it.each([
    ['__proto__.state', '"__proto__" is not a field name'],
    ['customer.constructor.prototype.state', '"constructor" is not a field name'],
    ['prototype', '"prototype" is not a field name'],
    ['customer..email', 'it has an empty name between dots'],
    ['.email', 'it has an empty name between dots'],
    ['', 'it has an empty name between dots'],
  ])('a header "%s" is refused naming its column, and no object gains a field', async (name, reason) => {
    const file = csvFile(`id,${name}\n1,open\n`);
    await expect(readAll(file)).rejects.toThrow(`CSV header column 2 "${name}" is not a field path: ${reason}`);
    expect(({} as Record<string, unknown>).state).toBeUndefined();
  });
});
