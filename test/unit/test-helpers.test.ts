/**
 * A helper two test files need lives once, in a module of test/support/ named for what it
 * holds. This check reads every TypeScript file under test/ but test/support/ and fails when
 * two of them define a top-level function (a `function` declaration, or a `const` holding an
 * arrow or a function expression) with the same name and the same body, comments and layout
 * aside; it names both places.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const TEST = fileURLToPath(new URL('..', import.meta.url));
const SUPPORT = join(TEST, 'support');

function testSources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return path === SUPPORT ? [] : testSources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

interface Helper {
  name: string;
  /** The definition as the printer writes it without comments, whitespace runs made one space. */
  body: string;
  /** `file:line`. */
  place: string;
}

const printer = ts.createPrinter({ removeComments: true });

/** The top-level functions a file defines, with their bodies made comparable. */
function topLevelHelpers(file: string, text: string): Helper[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const comparable = (node: ts.Node) => printer.printNode(ts.EmitHint.Unspecified, node, source).replace(/\s+/g, ' ');
  const place = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  return source.statements.flatMap((statement): Helper[] => {
    if (ts.isFunctionDeclaration(statement) && statement.name && statement.body) {
      const withoutExport = ts.factory.updateFunctionDeclaration(
        statement,
        statement.modifiers?.filter((modifier) => modifier.kind !== ts.SyntaxKind.ExportKeyword),
        statement.asteriskToken,
        statement.name,
        statement.typeParameters,
        statement.parameters,
        statement.type,
        statement.body,
      );
      return [{ name: statement.name.text, body: comparable(withoutExport), place: place(statement) }];
    }
    if (!ts.isVariableStatement(statement)) return [];
    return statement.declarationList.declarations.flatMap((declaration) => {
      const value = declaration.initializer;
      if (!ts.isIdentifier(declaration.name) || !value || !(ts.isArrowFunction(value) || ts.isFunctionExpression(value))) return [];
      return [{ name: declaration.name.text, body: comparable(declaration), place: place(declaration) }];
    });
  });
}

/** Each helper defined the same in two files or more: its name and its places, one line. */
function duplicatedHelpers(files: { file: string; text: string }[]): string[] {
  const byDefinition = new Map<string, Helper[]>();
  for (const { file, text } of files) {
    for (const helper of topLevelHelpers(file, text)) {
      const key = `${helper.name}\n${helper.body}`;
      byDefinition.set(key, [...(byDefinition.get(key) ?? []), helper]);
    }
  }
  return [...byDefinition.values()]
    .filter((helpers) => new Set(helpers.map((helper) => helper.place.split(':')[0])).size > 1)
    .map((helpers) => `${helpers[0]!.name}: ${helpers.map((helper) => helper.place).join(', ')}`)
    .sort();
}

describe('the helpers of the test files', () => {
  const files = testSources(TEST).map((path) => ({ file: relative(TEST, path), text: readFileSync(path, 'utf8') }));

  it('reads every test file but test/support', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.map(({ file }) => file)).toContain('unit/test-helpers.test.ts');
    expect(files.some(({ file }) => file.startsWith('support/'))).toBe(false);
  });

  it('define no function another test file defines the same', () => {
    expect(duplicatedHelpers(files)).toEqual([]);
  });

  it('names both places of a made-up duplicate, whatever its layout and comments, and not a namesake that differs', () => {
    const made = [
      { file: 'a/one.test.ts', text: 'export function total(items: number[]) {\n  return items.reduce((sum, n) => sum + n, 0);\n}\n' },
      { file: 'b/two.test.ts', text: '\n// the sum\nfunction total(items: number[]) { return items.reduce((sum, n) => sum + n, 0); }\n' },
      { file: 'c/three.test.ts', text: 'const total = (items: number[]) => items.length;\nconst half = (n: number) => n / 2;\n' },
      { file: 'd/four.test.ts', text: 'const half = (n: number) =>\n  n / 2;\n' },
    ];
    expect(duplicatedHelpers(made)).toEqual(['half: c/three.test.ts:2, d/four.test.ts:1', 'total: a/one.test.ts:1, b/two.test.ts:3']);
  });
});
