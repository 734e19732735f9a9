/**
 * The private CA of a test run and the certificate it signs for 127.0.0.1 and localhost: the
 * hubs of the sync tests serve https with it, their stores trust it through `hub.ca_file`
 * (LOYALTYD_HUB_CA_FILE for a daemon), and the tests' own clients trust it as a POS trusts
 * its chain's CA (test/support/trust-test-ca.ts). Vitest's global setup
 * (test/support/pki-setup.ts) makes it once per run and names its folder in TEST_PKI_DIR; a
 * process run without it makes one of its own, removed when it exits.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePki, type CertificateFiles } from './certificates.js';

export const TEST_PKI_ENV = 'TEST_PKI_DIR';

export interface RunPki {
  caCert: string;
  server: CertificateFiles;
}

/** The run's CA and server certificate, in `dir`. */
export function pkiIn(dir: string): RunPki {
  return { caCert: join(dir, 'ca.crt'), server: { cert: join(dir, 'server.crt'), key: join(dir, 'server.key') } };
}

/** Makes the CA and the server certificate in a new temp folder; its path. */
export function makeRunPki(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loyaltyd-pki-'));
  makePki(dir);
  return dir;
}

export function testPki(): RunPki {
  let dir = process.env[TEST_PKI_ENV];
  if (!dir || !existsSync(join(dir, 'server.crt'))) {
    const made = makeRunPki();
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    process.env[TEST_PKI_ENV] = made;
    dir = made;
  }
  return pkiIn(dir);
}

/** The settings of a hub serving https with the run's certificate. */
export function hubTlsConfig(): Record<string, unknown> {
  const pki = testPki();
  return { 'http.tls': { cert_file: pki.server.cert, key_file: pki.server.key } };
}

/** The environment of a `loyaltyd serve` hub serving https with the run's certificate. */
export function hubTlsEnv(): Record<string, string> {
  const pki = testPki();
  return { LOYALTYD_TLS_CERT_FILE: pki.server.cert, LOYALTYD_TLS_KEY_FILE: pki.server.key };
}
