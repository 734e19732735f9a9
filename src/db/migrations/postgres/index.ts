/**
 * PostgreSQL's schema: a hub on PostgreSQL starts from the schema SQLite's migrations 1 to
 * `BASELINE_VERSION` make, made at once, and takes each later migration's `postgres` SQL. No
 * hub ran on PostgreSQL before that version, so none needs the steps between.
 */
import * as tables from './baseline-tables.js';
import * as ledgerTriggers from './ledger-triggers.js';
import * as derivedTriggers from './derived-triggers.js';
import * as recommendationFunctions from './recommendation-functions.js';

export const BASELINE_VERSION = 31;

export const BASELINE_SQL = [tables.sql, ledgerTriggers.sql, derivedTriggers.sql, recommendationFunctions.sql].join('\n');
