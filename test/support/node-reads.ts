/** Reading what a node holds straight from its database, beside the API under test. */
import type { TestServer } from './server.js';

/** The `n` a counting query returns, e.g. `SELECT count(*) AS n FROM ...`. */
export const count = (server: TestServer, sql: string, ...params: unknown[]) => (server.app.node.db.prepare(sql).get(...params) as { n: number }).n;
