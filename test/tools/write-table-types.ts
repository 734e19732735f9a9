/** `npm run tables`: writes src/db/tables.generated.ts from the migrations (test/tools/table-types.ts). */
import { writeFileSync } from 'node:fs';
import { tableTypes } from './table-types.js';

writeFileSync(new URL('../../src/db/tables.generated.ts', import.meta.url), tableTypes());
