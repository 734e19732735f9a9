#!/usr/bin/env node
/**
 * `npm test` starts here: the Debian packages the tests need beside node_modules. The browser
 * tests drive Debian's chromium (test/browser/), the TLS tests make their certificates with
 * openssl (test/support/certificates.ts), and a store whose clock runs ahead runs under
 * libfaketime (test/sync/store/clock-ahead.test.ts). Run as root, the missing ones are
 * installed with apt-get; otherwise it stops at once with the line that installs them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const onPath = (command) => (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, command)));
const libfaketime = () =>
  existsSync('/usr/lib') && readdirSync('/usr/lib').some((dir) => existsSync(join('/usr/lib', dir, 'faketime', 'libfaketimeMT.so.1')));

const NEEDED = [
  { name: 'chromium', present: () => existsSync('/usr/bin/chromium') },
  { name: 'openssl', present: () => onPath('openssl') },
  { name: 'faketime', present: libfaketime },
];

const missing = NEEDED.filter((needed) => !needed.present()).map((needed) => needed.name);
if (missing.length > 0) {
  const line = `apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    console.error(`The tests need Debian packages this machine lacks: ${missing.join(', ')}. Install them, then run npm test again:\n  sudo ${line}`);
    process.exit(1);
  }
  console.error(`Installing the Debian packages the tests need: ${line}`);
  const environment = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env: environment });
  execFileSync('apt-get', ['install', '-y', ...missing], { stdio: 'inherit', env: environment });
}
