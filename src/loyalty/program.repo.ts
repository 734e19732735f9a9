import type { Db } from '../db/open.js';
import type { WriteTransaction } from '../db/write-path.js';
import { Program } from './program.schemas.js';

/** The program is one replicated row of program_rules; its id is fixed so loads replace it. */
export const PROGRAM_ROW_ID = '00000000000000000000000001';

export class ProgramRepo {
  private readonly current;
  private cached: { hlc: string; program: Program } | undefined;

  constructor(db: Db) {
    this.current = db.prepare<[string], { body: string; hlc: string }>("SELECT body, hlc FROM program_rules WHERE id = ? AND kind = 'program'");
  }

  /**
   * The loaded program, or undefined before `loyaltyd program load`. Parsed once per
   * version of the row: every checkout call asks for it.
   */
  load(): Program | undefined {
    const row = this.current.get(PROGRAM_ROW_ID);
    if (!row) return undefined;
    if (this.cached?.hlc !== row.hlc) this.cached = { hlc: row.hlc, program: Program.parse(JSON.parse(row.body)) };
    return this.cached.program;
  }

  save(tx: WriteTransaction, program: unknown, exists: boolean): void {
    const body = JSON.stringify(program);
    if (exists) tx.update('program_rules', PROGRAM_ROW_ID, { body });
    else tx.insert('program_rules', { id: PROGRAM_ROW_ID, kind: 'program', body });
  }
}
