/** Every error answer is built in the catalogue (src/core/errors.ts), so the README's tables can be checked against it. */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sources } from '../support/source-files.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

describe('the error catalogue', () => {
  it('is the one place an AppError is built', () => {
    const outside = sources(SRC)
      .filter((file) => relative(SRC, file) !== 'core/errors.ts')
      .filter((file) => /new AppError\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(outside).toEqual([]);
  });

  it('is found by the check (errors.ts builds them)', () => {
    expect(readFileSync(join(SRC, 'core', 'errors.ts'), 'utf8')).toMatch(/new AppError\b/);
  });
});
