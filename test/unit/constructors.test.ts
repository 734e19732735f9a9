/**
 * No constructor in src/ takes more than four parameters: past four, a call is a row of
 * positional arguments a reader has to count, and a class takes an options object, a named
 * interface of what it uses. Constructors are found by the TypeScript compiler's parser,
 * classes and class expressions alike.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sources } from '../support/source-files.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const MAX_PARAMETERS = 4;

/** Each constructor of `text` with more than MAX_PARAMETERS parameters, as `Class(n)`. */
function longConstructors(fileName: string, text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isConstructorDeclaration(node) && node.parameters.length > MAX_PARAMETERS) {
      const owner = node.parent;
      const name = ts.isClassLike(owner) && owner.name ? owner.name.text : '(anonymous class)';
      found.push(`${name}(${node.parameters.length})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true));
  return found;
}

describe('constructors', () => {
  it('take at most four parameters everywhere in src/', () => {
    const long = sources(SRC).flatMap((file) =>
      longConstructors(file, readFileSync(file, 'utf8')).map((found) => `${relative(SRC, file)}: ${found}`),
    );
    expect(long).toEqual([]);
  });

  it('with five parameters or more are found by the check, in a class and a class expression alike', () => {
    const made = `
      export class Recorder {
        constructor(private readonly a: number, b: string, c: boolean, d: number, e = 1) {}
      }
      export class Small {
        constructor(a: number, b: number, c: number, d: number) {}
      }
      export const Anonymous = class {
        constructor(a: number, b: number, c: number, d: number, e: number, f: number) {}
      };`;
    expect(longConstructors('made-up.ts', made)).toEqual(['Recorder(5)', '(anonymous class)(6)']);
  });
});
