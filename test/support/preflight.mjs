#!/usr/bin/env node
/**
 * `npm test` starts here: the Debian packages the tests need beside node_modules. The browser
 * tests drive Debian's chromium (test/browser/), the TLS tests make their certificates with
 * openssl (test/support/certificates.ts), and a store whose clock runs ahead runs under
 * libfaketime (test/sync/store/clock-ahead.test.ts). A hub can keep its data in PostgreSQL:
 * its tests start a private PostgreSQL 15 cluster (test/support/postgres-cluster.ts), its
 * backups are pgBackRest's, and its driver, the npm package libpq, is a native addon compiled
 * against libpq's headers (libpq-dev). Run as root, the missing ones are installed with
 * apt-get; otherwise it stops at once with the line that installs them.
 *
 * libpq is an optional dependency, so `npm ci` carries on when its compilation fails (no
 * headers yet) and leaves it out; once the packages are in place, the locked version is
 * installed again without touching package.json or the lockfile, or rebuilt if it is there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const onPath = (command) => (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, command)));
const libfaketime = () =>
  existsSync('/usr/lib') && readdirSync('/usr/lib').some((dir) => existsSync(join('/usr/lib', dir, 'faketime', 'libfaketimeMT.so.1')));

const NEEDED = [
  { name: 'chromium', present: () => existsSync('/usr/bin/chromium') },
  { name: 'openssl', present: () => onPath('openssl') },
  { name: 'faketime', present: libfaketime },
  { name: 'postgresql', present: () => existsSync('/usr/lib/postgresql/15/bin/initdb') },
  { name: 'pgbackrest', present: () => onPath('pgbackrest') },
  { name: 'libpq-dev', present: () => existsSync('/usr/include/postgresql/libpq-fe.h') },
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

const require = createRequire(import.meta.url);
const libpqLoads = () => {
  try {
    require('libpq');
    return true;
  } catch {
    return false;
  }
};
if (!libpqLoads()) {
  // npm drops an optional dependency that failed to compile: put back the locked version, or build the one there.
  const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8'));
  const locked = lock.packages?.['node_modules/libpq']?.version;
  const command = existsSync(new URL('../../node_modules/libpq/package.json', import.meta.url))
    ? ['rebuild', 'libpq']
    : ['install', '--no-save', '--no-audit', '--no-fund', `libpq@${locked}`];
  console.error(`The PostgreSQL driver libpq (node_modules/libpq) does not load; building it: npm ${command.join(' ')}`);
  try {
    execFileSync('npm', command, { stdio: 'inherit' });
  } catch {
    // Its compiler's output is above; whether the addon loads is the verdict.
  }
  if (!libpqLoads()) {
    console.error(
      'The PostgreSQL driver libpq still does not load. It compiles against libpq-dev with pg_config and a C++ toolchain (make, g++); run npm install, then npm test again.',
    );
    process.exit(1);
  }
}
