import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that measure what a background thread gets done against a writer (the WAL checkpoint
 * worker) run after the rest of the suite, one file at a time: beside a dozen other test
 * files on two cores the thread is starved, and what they measure is the machine's load.
 */
const ALONE = ['test/db/checkpointer.test.ts'];

/** Reads what the whole suite prepared (test/support/statement-log.ts): it runs after the rest. */
const AFTER_THE_SUITE = ['test/db/statement-parity.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The run's private CA, and the tests' clients trusting it (test/support/test-pki.ts);
    // the run's PostgreSQL cluster, for the tests of a hub on PostgreSQL (test/support/postgres.ts).
    globalSetup: ['test/support/pki-setup.ts', 'test/support/postgres-setup.ts', 'test/support/statement-log-setup.ts'],
    setupFiles: ['test/support/trust-test-ca.ts', 'test/support/statement-log.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ALONE, ...AFTER_THE_SUITE],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'alone', include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'after-the-suite', include: AFTER_THE_SUITE, sequence: { groupOrder: 2 } } },
    ],
  },
});
