import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that measure what a background thread gets done against a writer (the WAL checkpoint
 * worker, whose checkpoints fsync) run before the rest of the suite, one file at a time:
 * beside a dozen other test files on two cores the thread is starved, and after them the
 * disk is still writing back what they left (3.8 MB against the 3 MB bound, run last in CI).
 */
const ALONE = ['test/db/checkpointer.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'suite', include: ['test/**/*.test.ts', 'src/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ALONE], sequence: { groupOrder: 1 } },
      },
      { extends: true, test: { name: 'alone', include: ALONE, fileParallelism: false, sequence: { groupOrder: 0 } } },
    ],
  },
});
