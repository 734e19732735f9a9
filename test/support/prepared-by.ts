/** The statements a repository prepares as it is built or read, on a database whose `prepare` is recorded and passed through. */
import type { Db } from '../../src/db/engine.js';

export function preparedBy(db: Db, build: (db: Db) => unknown): string[] {
  const prepared: string[] = [];
  const recording = new Proxy(db, {
    get: (target, key) => (key === 'prepare' ? (sql: string) => (prepared.push(sql), target.prepare(sql)) : Reflect.get(target, key)),
  });
  build(recording);
  return prepared;
}
