/**
 * The decision records in src/decisions/: one decision a file, named NNNN-short-title.md, each with a
 * title, a status and the date it was decided; the folder's README indexes exactly those files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const FOLDER = new URL('../../src/decisions/', import.meta.url);
const RECORD_NAME = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;

const names = readdirSync(FOLDER).filter((name) => name !== 'README.md');
const records = names.map((name) => ({ name, text: readFileSync(new URL(name, FOLDER), 'utf8') }));
const numbers = records.map(({ name }) => Number(RECORD_NAME.exec(name)?.[1]));

/** A record's header: the title line, a blank line, then `Status:` and `Date:`. */
function header(text: string): { title: string; status: string; date: string } | undefined {
  const match = /^# (.+)\n\nStatus: (.+)\nDate: (.+)\n\n\S/.exec(text);
  return match ? { title: match[1]!, status: match[2]!, date: match[3]! } : undefined;
}

describe('decision records', () => {
  it('are the only files beside the README, each named NNNN-short-title.md', () => {
    expect(records.length).toBeGreaterThan(0);
    expect(names.filter((name) => !RECORD_NAME.test(name))).toEqual([]);
  });

  it('open with a title, a Status (accepted, or superseded by an existing record) and the Date decided', () => {
    for (const { name, text } of records) {
      const found = header(text);
      expect(found, name).toBeDefined();
      expect(found!.status, name).toMatch(/^(accepted|superseded by \d{4})$/);
      const superseding = /^superseded by (\d{4})$/.exec(found!.status);
      if (superseding) expect(numbers, name).toContain(Number(superseding[1]));
      expect(found!.date, name).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number.isNaN(Date.parse(found!.date)), name).toBe(false);
    }
  });

  it('are numbered 0001 onwards, each number once, none skipped', () => {
    expect([...numbers].sort((a, b) => a - b)).toEqual(records.map((_, index) => index + 1));
  });

  it("are listed in the README's table exactly, each with its title, status and date", () => {
    const readme = readFileSync(new URL('README.md', FOLDER), 'utf8');
    const rows = [...readme.matchAll(/^\| *(\d{4}) *\| *\[(.+?)\]\((.+?)\) *\| *(.+?) *\| *(.+?) *\|$/gm)].map((row) => ({
      number: Number(row[1]),
      file: row[3]!,
      title: row[2]!,
      status: row[4]!,
      date: row[5]!,
    }));
    const expected = records.map(({ name, text }) => ({ number: Number(name.slice(0, 4)), file: name, ...header(text)! }));
    const byNumber = (a: { number: number }, b: { number: number }) => a.number - b.number;
    expect(rows.sort(byNumber)).toEqual(expected.sort(byNumber));
  });

  it('cite no issue numbers, which a reader of the repository cannot open', () => {
    for (const { name, text } of records) expect(text, name).not.toMatch(/issues? #?\d|\(#\d+\)/i);
  });
});
