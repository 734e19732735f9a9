/** `npm run tables`: writes src/db/tables.ts from the migrations (test/support/table-types.ts). */
import { writeFileSync } from 'node:fs';
import { tableTypes } from './table-types.js';

writeFileSync(new URL('../../src/db/tables.ts', import.meta.url), tableTypes());
