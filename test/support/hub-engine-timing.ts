/**
 * A reporter that prints, at the end of a run, how long the sync tests took with their hubs on
 * SQLite (the suite) and on PostgreSQL (the `sync-on-postgres` project), and the ratio: the
 * same files, in the same run, on the same machine's load. A time is what a reader judges, not
 * what a test asserts.
 */
import type { Reporter, TestModule } from 'vitest/node';

const SYNC_TESTS = /\/test\/sync\//;
const PROJECTS = { sqlite: 'suite', postgres: 'sync-on-postgres' };

export default class HubEngineTiming implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const onPostgres = new Set(testModules.filter((module) => module.project.name === PROJECTS.postgres).map((module) => module.moduleId));
    const seconds = (project: string) =>
      testModules
        .filter((module) => module.project.name === project && SYNC_TESTS.test(module.moduleId) && onPostgres.has(module.moduleId))
        .reduce((sum, module) => sum + module.diagnostic().duration, 0) / 1000;
    const [sqlite, postgres] = [seconds(PROJECTS.sqlite), seconds(PROJECTS.postgres)];
    if (sqlite === 0 || postgres === 0) return;
    console.log(
      `\nSync tests (${onPostgres.size} files): hubs on SQLite ${sqlite.toFixed(1)} s, on PostgreSQL ${postgres.toFixed(1)} s, ratio ${(postgres / sqlite).toFixed(2)}×`,
    );
  }
}
