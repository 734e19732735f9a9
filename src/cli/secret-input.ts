/**
 * A secret given on the command line as `-` is read from standard input instead: an argument
 * shows in the process list and the shell's history.
 */
import { text } from 'node:stream/consumers';

export async function secretArgument(value: string): Promise<string> {
  if (value !== '-') return value;
  const secret = (await text(process.stdin)).split(/\r?\n/)[0] ?? '';
  if (secret === '') throw new Error('No secret on standard input');
  return secret;
}
