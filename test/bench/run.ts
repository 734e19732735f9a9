/**
 * `npm run bench [name…]`: runs the benchmarks of test/bench (each `<name>.bench.ts`
 * exporting `run()`), one after another, printing their figures. Each benchmark names its
 * baseline and prints the ratio against it, so a reader on a noisy machine can trust the
 * ratio rather than the absolute numbers. With `--json` (`npm run bench NAME -- --json`) the
 * last line is every figure printed, as one JSON object (report.ts).
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { keptFigures, startBench } from './report.js';

const folder = fileURLToPath(new URL('.', import.meta.url));
const json = process.argv.includes('--json');
const wanted = process.argv.slice(2).filter((arg) => arg !== '--json');
const benches = readdirSync(folder)
  .filter((file) => file.endsWith('.bench.ts'))
  .map((file) => file.replace(/\.bench\.ts$/, ''))
  .filter((name) => wanted.length === 0 || wanted.includes(name));

if (benches.length === 0) {
  process.stderr.write(`no benchmark matches ${wanted.join(', ')}\n`);
  process.exit(2);
}
for (const name of benches) {
  process.stdout.write(`\n=== ${name} ===\n`);
  startBench(name);
  const module = (await import(`./${name}.bench.ts`)) as { run(): Promise<void> };
  await module.run();
}
if (json) process.stdout.write(`${JSON.stringify(keptFigures())}\n`);
