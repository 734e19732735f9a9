/**
 * The house drawn from src/'s imports (src/core/CONTEXT.md): layers import downwards only,
 * and no module reaches itself through its imports. Every `from '…'` and `import('…')` of a
 * relative path counts, type-only ones too: a type that points up is a dependency that
 * points up. The database drivers are imported under src/db/ alone (src/db/engine.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sources } from '../support/source-files.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** For each layer, the layers it must not import. */
const FORBIDDEN: Record<string, string[]> = {
  core: ['db', 'loyalty', 'http', 'sync', 'features', 'ops', 'root', 'cli'],
  db: ['loyalty', 'http', 'sync', 'features', 'ops', 'root', 'cli'],
  loyalty: ['http', 'sync', 'features', 'ops', 'root', 'cli'],
  http: ['features', 'ops', 'root', 'cli'],
  sync: ['features', 'ops', 'root', 'cli'],
  auth: ['features', 'ops', 'root', 'cli'],
  mail: ['features', 'ops', 'root', 'cli'],
  features: ['ops', 'root', 'cli'],
  ops: ['root', 'cli'],
  demo: ['root', 'cli'],
  import: ['root', 'cli'],
};

/** The composition root (src/root/) is imported by the CLI alone: nothing else builds the node's parts. */
const ROOT_IMPORTERS = ['root', 'cli'];

/** Each module of src/ (its path from src/) with the modules of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map((match) =>
      relative(SRC, normalize(join(dirname(file), match[1]!))).replace(/\.js$/, '.ts'),
    );
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

const layerOf = (module: string) => (module.includes('/') ? module.split('/')[0]! : '(top)');

/** Every cycle's modules, one line each (Tarjan's strongly connected components). */
function cycles(graph: Map<string, string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];
  const visit = (module: string) => {
    index.set(module, index.size);
    low.set(module, index.get(module)!);
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(module, Math.min(low.get(module)!, index.get(target)!));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1 || graph.get(module)!.includes(module)) found.push(component.sort().join(' ↔ '));
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return found;
}

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('reads every module and its imports', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('root/app.ts')).toContain('root/node.ts');
  });

  it('has layers that import downwards only', () => {
    const upwards = [...graph].flatMap(([module, targets]) =>
      targets.filter((target) => FORBIDDEN[layerOf(module)]?.includes(layerOf(target))).map((target) => `${module} → ${target}`),
    );
    expect(upwards).toEqual([]);
  });

  it('has the composition root imported by the CLI alone', () => {
    const intoRoot = [...graph].flatMap(([module, targets]) =>
      ROOT_IMPORTERS.includes(layerOf(module)) ? [] : targets.filter((target) => layerOf(target) === 'root').map((target) => `${module} → ${target}`),
    );
    expect(intoRoot).toEqual([]);
  });

  it('has every module in a folder: the primitives in core/, the rest in their layer', () => {
    expect([...graph.keys()].filter((module) => layerOf(module) === '(top)')).toEqual([]);
  });

  it('has no cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('names an upward import and a cycle when there is one', () => {
    const made = new Map([
      ['loyalty/a.ts', ['features/b/b.ts']],
      ['features/b/b.ts', ['loyalty/a.ts']],
    ]);
    expect(cycles(made)).toEqual(['features/b/b.ts ↔ loyalty/a.ts']);
    expect(FORBIDDEN[layerOf('loyalty/a.ts')]).toContain(layerOf('features/b/b.ts'));
    expect(ROOT_IMPORTERS).not.toContain(layerOf('features/b/b.ts'));
  });
});

/** The database drivers: imported by src/db/ alone, so every other module reaches a database through its `Db`. */
const DRIVERS = ['better-sqlite3', 'libpq', 'pg'];

/** Each import of a driver outside src/db/, as `module → driver`. */
function driverImports(files: Map<string, string>): string[] {
  return [...files].flatMap(([module, text]) =>
    module.startsWith('db/')
      ? []
      : [...text.matchAll(/(?:from|import\(|require\()\s*'([^'.][^']*)'/g)]
          .map((match) => match[1]!)
          .filter((target) => DRIVERS.includes(target))
          .map((driver) => `${module} → ${driver}`),
  );
}

describe('the database drivers', () => {
  const files = new Map(sources(SRC).map((file) => [relative(SRC, file), readFileSync(file, 'utf8')]));

  it('are imported under src/db/ alone', () => {
    expect(driverImports(files)).toEqual([]);
    expect([...files].filter(([module, text]) => module.startsWith('db/') && text.includes("from 'better-sqlite3'"))).not.toEqual([]);
  });

  it('names an import of a driver outside src/db/', () => {
    const made = new Map([
      ['sync/a.ts', "import Database from 'better-sqlite3';\nimport { x } from '../db/open.js';"],
      ['cli/b.ts', "const libpq = require('libpq');"],
      ['db/c.ts', "import pg from 'pg';"],
    ]);
    expect(driverImports(made)).toEqual(['sync/a.ts → better-sqlite3', 'cli/b.ts → libpq']);
  });
});

/** A folder's opening: its CONTEXT.md (or README.md), else the doc comment its index.ts starts with. */
function opening(folder: string): string | undefined {
  for (const name of ['CONTEXT.md', 'README.md']) {
    const path = join(folder, name);
    if (existsSync(path))
      return readFileSync(path, 'utf8')
        .replace(/^#.*\n/, '')
        .trim()
        .split('\n\n')[0];
  }
  const index = join(folder, 'index.ts');
  if (!existsSync(index)) return undefined;
  return /^\/\*\*([\s\S]*?)\*\//.exec(readFileSync(index, 'utf8'))?.[1];
}

function folders(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [join(folder, entry.name), ...folders(join(folder, entry.name))]);
}

describe('the folders of src/', () => {
  it('each open with a paragraph saying what the folder holds', () => {
    const silent = folders(SRC).filter((folder) => (opening(folder)?.trim().length ?? 0) < 40);
    expect(silent.map((folder) => relative(SRC, folder))).toEqual([]);
  });
});
