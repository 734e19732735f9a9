/**
 * Printing helpers shared by the benchmarks. Every figure printed with `line` is also kept,
 * under its benchmark, for the JSON object `npm run bench NAME -- --json` prints last
 * (run.ts): the line's text, and the numbers in it in order (not those in a name such as
 * `p99`), so that a script can compare runs.
 */
import { readFileSync } from 'node:fs';

export interface Figure {
  text: string;
  numbers: number[];
}

const figures: Record<string, Record<string, Figure>> = {};
let bench = '';

/** The benchmark whose figures `line` keeps from now on. */
export function startBench(name: string): void {
  bench = name;
  figures[name] = {};
}

/** Every figure printed so far, by benchmark and label. */
export function keptFigures(): Record<string, Record<string, Figure>> {
  return figures;
}

export function line(label: string, value: string): void {
  process.stdout.write(`${label.padEnd(44)} ${value}\n`);
  const kept = (figures[bench] ??= {});
  let key = label || '(unlabelled)';
  for (let n = 2; key in kept; n += 1) key = `${label || '(unlabelled)'} #${n}`;
  kept[key] = { text: value, numbers: [...value.matchAll(/(?<![\w.])-?\d[\d,]*(?:\.\d+)?/g)].map((match) => Number(match[0].replaceAll(',', ''))) };
}

export function rate(count: number, ms: number): string {
  return `${Math.round((count * 1000) / ms).toLocaleString('en')} /s`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

/** Peak resident memory of a process (VmHWM), in bytes; this process when no pid is given. */
export function peakRss(pid: number | 'self' = 'self'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

export function verdict(measured: number, target: number, lowerIsBetter = true): string {
  const ok = lowerIsBetter ? measured <= target : measured >= target;
  return ok ? 'within target' : 'MISSES target';
}
