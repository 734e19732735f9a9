/**
 * Writes are typed by the tables' columns (src/db/tables.generated.ts): the file is what the migrations
 * make, and the compiler refuses a write naming a column its table lacks.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tableTypes } from '../tools/table-types.js';

const WRITE_PATH = fileURLToPath(new URL('../../src/db/write-path.ts', import.meta.url));

/** The compiler's errors for a module that writes `row` into customers, with the project's options. */
function errorsOfWrite(row: string): string[] {
  const folder = mkdtempSync(join(tmpdir(), 'loyaltyd-types-'));
  try {
    const file = join(folder, 'write.ts');
    writeFileSync(
      file,
      `import type { WriteTransaction } from '${WRITE_PATH.replace(/\.ts$/, '.js')}';\nexport const write = (tx: WriteTransaction) => tx.insert('customers', ${row});\n`,
    );
    const config = ts.getParsedCommandLineOfConfigFile(
      fileURLToPath(new URL('../../tsconfig.json', import.meta.url)),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    )!;
    const program = ts.createProgram([file], { ...config.options, rootDir: undefined, outDir: undefined, noEmit: true });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('typed writes', () => {
  it('src/db/tables.generated.ts is what the migrations make (npm run tables writes it)', () => {
    expect(readFileSync(new URL('../../src/db/tables.generated.ts', import.meta.url), 'utf8')).toBe(tableTypes());
  });

  it('the compiler refuses a misspelt column in a write and takes the right one', () => {
    expect(errorsOfWrite("{ id: 'c1', first_name: 'Eva' }")).toEqual([]);
    expect(errorsOfWrite("{ id: 'c1', frist_name: 'Eva' }").join('\n')).toMatch(/frist_name/);
  }, 60_000);
});
