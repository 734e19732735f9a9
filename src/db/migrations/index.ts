import * as initial from './0001-initial.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [{ version: 1, name: 'initial', sql: initial.sql }];
