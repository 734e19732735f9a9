import type { Db } from '../db/open.js';
import type { WriteTransaction } from '../db/write-path.js';
import { Program } from './program.schemas.js';

/** The program is one replicated row of program_rules; its id is fixed so loads replace it. */
export const PROGRAM_ROW_ID = '00000000000000000000000001';

export class ProgramRepo {
  private readonly current;

  constructor(db: Db) {
    this.current = db.prepare<[string], { body: string }>("SELECT body FROM program_rules WHERE id = ? AND kind = 'program'");
  }

  /** The loaded program, or undefined before `loyaltyd program load`. */
  load(): Program | undefined {
    const row = this.current.get(PROGRAM_ROW_ID);
    return row ? Program.parse(JSON.parse(row.body)) : undefined;
  }

  save(tx: WriteTransaction, program: unknown, exists: boolean): void {
    const body = JSON.stringify(program);
    if (exists) tx.update('program_rules', PROGRAM_ROW_ID, { body });
    else tx.insert('program_rules', { id: PROGRAM_ROW_ID, kind: 'program', body });
  }
}
