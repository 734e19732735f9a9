import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that measure what a background thread gets done against a writer (the WAL checkpoint
 * worker) run after the rest of the suite, one file at a time: beside a dozen other test
 * files on two cores the thread is starved, and what they measure is the machine's load.
 */
const ALONE = ['test/db/checkpointer.test.ts'];

/** The sync tests, which the suite runs with every hub on SQLite and again on PostgreSQL. */
const SYNC = ['test/sync/**/*.test.ts'];
/**
 * Sync tests not run again with their hubs on PostgreSQL: two put their hubs on the engines they
 * test themselves; a hub on PostgreSQL reads its snapshots on its own thread (src/root/hub.ts
 * says why), so the threads' test has nothing to test there.
 */
const NOT_AGAIN_ON_POSTGRES = [
  'test/sync/hub/hub-on-postgres.test.ts',
  'test/sync/hub/move-to-postgres.test.ts',
  'test/sync/hub/snapshot-threads.test.ts',
];

/** Reads what the whole suite prepared (test/support/statement-log.ts): it runs after the rest. */
const AFTER_THE_SUITE = ['test/db/statement-parity.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // test/support/hub-engine-timing.ts: the sync tests' time with their hubs on either engine.
    reporters: ['default', './test/support/hub-engine-timing.ts'],
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
      {
        // test/support/hub-engine.ts: every hub the sync tests start keeps its data in the run's cluster.
        extends: true,
        test: {
          name: 'sync-on-postgres',
          include: SYNC,
          exclude: [...configDefaults.exclude, ...NOT_AGAIN_ON_POSTGRES],
          env: { LOYALTYD_TEST_HUB_ENGINE: 'postgres' },
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'alone', include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'after-the-suite', include: AFTER_THE_SUITE, sequence: { groupOrder: 2 } } },
    ],
  },
});
