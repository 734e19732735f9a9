/** Vitest's global setup: the run's private CA, made once before any test file (test/support/test-pki.ts). */
import { rmSync } from 'node:fs';
import { makeRunPki, TEST_PKI_ENV } from './test-pki.js';

export default function setup(): () => void {
  const dir = makeRunPki();
  process.env[TEST_PKI_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
