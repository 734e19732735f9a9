/**
 * Every error answer is built in the catalogue (src/core/errors.ts, and src/core/sync-errors.ts
 * for the sync protocol's), so the README's tables can be checked against it.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sources } from '../support/source-files.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const CATALOGUE = ['core/errors.ts', 'core/sync-errors.ts'];

describe('the error catalogue', () => {
  it('is the one place an AppError is built', () => {
    const outside = sources(SRC)
      .filter((file) => !CATALOGUE.includes(relative(SRC, file)))
      .filter((file) => /new AppError\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(outside).toEqual([]);
  });

  it('is found by the check (each of the catalogue’s files builds them)', () => {
    for (const file of CATALOGUE) expect(readFileSync(join(SRC, file), 'utf8'), file).toMatch(/new AppError\b/);
  });
});
