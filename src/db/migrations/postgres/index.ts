/**
 * PostgreSQL's schema: a hub on PostgreSQL starts from the schema SQLite's migrations up to
 * `BASELINE_VERSION` make, made at once and recorded as those migrations, and takes each later
 * migration's `postgres` SQL. The baseline stands for every step before it, so PostgreSQL has
 * no twin of them.
 */
import * as tables from './baseline-tables.js';
import * as ledgerTriggers from './ledger-triggers.js';
import * as derivedTriggers from './derived-triggers.js';
import * as recommendationFunctions from './recommendation-functions.js';

export const BASELINE_VERSION = 31;

export const BASELINE_SQL = [tables.sql, ledgerTriggers.sql, derivedTriggers.sql, recommendationFunctions.sql].join('\n');
