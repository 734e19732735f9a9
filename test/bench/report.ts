/** Printing helpers shared by the benchmarks. */
import { readFileSync } from 'node:fs';

export function line(label: string, value: string): void {
  process.stdout.write(`${label.padEnd(44)} ${value}\n`);
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
