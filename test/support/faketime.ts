import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Debian's libfaketime (package faketime), in the build that synchronises its cached clock
 * state between threads: node's worker threads read the clock too.
 */
export function libfaketime(): string {
  const found = readdirSync('/usr/lib')
    .map((dir) => join('/usr/lib', dir, 'faketime', 'libfaketimeMT.so.1'))
    .find((path) => existsSync(path));
  if (!found) throw new Error('libfaketime is missing: apt-get install -y faketime (npm test installs it when run as root)');
  return found;
}
