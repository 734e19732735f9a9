/**
 * Runs the built command line (`node bin/loyaltyd ...`, which imports dist/) as a real
 * process. `npm test` builds first; alone, run `npx tsc -p tsconfig.json` before.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/loyaltyd', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment for a CLI process: this one's without any `LOYALTYD_*` variable, so a
 * developer's own settings cannot change what a test sees, plus `env`.
 */
export function cliEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LOYALTYD_')));
  return { ...base, ...env };
}

/** Runs the CLI; `input` is written to its standard input, which is closed either way. */
export function runCli(args: string[], env: Record<string, string> = {}, input = ''): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { env: cliEnv(env), timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(input);
  });
}

/** Runs a command with `--json` and parses its stdout; fails loudly on a non-zero exit. */
export async function runCliJson(args: string[], env: Record<string, string> = {}): Promise<any> {
  const result = await runCli([...args, '--json'], env);
  if (result.code !== 0) throw new Error(`loyaltyd ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}
