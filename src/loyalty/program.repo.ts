import type { Db } from '../db/open.js';
import type { WriteTransaction } from '../db/write-path.js';
import { loyaltyColumns } from './column-codecs.js';
import type { Program } from './program.schemas.js';
import type { ProgramRulesRow } from '../db/tables.generated.js';

/** The program is one replicated row of program_rules; its id is fixed so loads replace it. */
export const PROGRAM_ROW_ID = '00000000000000000000000001';

/**
 * The version of the program in force at an instant (an ISO instant): the newest that came into
 * force at or before it, else the earliest, by the index on `in_force_from`. Exported for the
 * test of its query plan.
 */
export const VERSION_IN_FORCE_SQL = `SELECT coalesce(
  (SELECT id FROM program_history WHERE in_force_from <= ? ORDER BY in_force_from DESC, id DESC LIMIT 1),
  (SELECT id FROM program_history ORDER BY in_force_from, id LIMIT 1)
) AS id`;

/** Parsed versions kept: a batch of operations mostly falls within one or two versions. */
const VERSIONS_CACHED = 8;

export class ProgramRepo {
  private readonly current;
  private readonly versionInForce;
  private readonly versionBody;
  private cached: { hlc: string; program: Program } | undefined;
  /** Parsed versions by history id, oldest used first; a version's row never changes. */
  private readonly versions = new Map<number, Program>();

  constructor(
    db: Db,
    /**
     * The instant feature code judges by when it is not now: a store's operation the hub runs
     * again is judged by the program in force at its as-of time (src/core/operations.ts).
     */
    private readonly judgedAt: () => number | undefined = () => undefined,
  ) {
    this.current = db.prepare<[string], Pick<ProgramRulesRow, 'body' | 'hlc'>>(
      "SELECT body, hlc FROM program_rules WHERE id = ? AND kind = 'program'",
    );
    this.versionInForce = db.prepare<[string], number | null>(VERSION_IN_FORCE_SQL).pluck();
    this.versionBody = db.prepare<[number], string>('SELECT body FROM program_history WHERE id = ?').pluck();
  }

  /**
   * Without `at`, the loaded program, or undefined before `loyaltyd program load`. Parsed once
   * per version of the row: every checkout call asks for it.
   *
   * With `at` (epoch ms), the version in force then (program_history):
   * the newest that came into force at or before it. An instant before the first version this
   * node knows is judged by that first version, since an operation needs a program to be judged
   * by and no earlier one is kept (a node that took the history's migration or bootstrapped
   * keeps none from before); undefined only while the node has held no program.
   */
  load(at = this.judgedAt()): Program | undefined {
    if (at === undefined) return this.loadCurrent();
    const id = this.versionInForce.get(new Date(at).toISOString());
    if (id === null || id === undefined) return undefined;
    let program = this.versions.get(id);
    if (program) {
      this.versions.delete(id);
    } else {
      program = loyaltyColumns['program_history.body'](this.versionBody.get(id)!);
      if (this.versions.size >= VERSIONS_CACHED) this.versions.delete(this.versions.keys().next().value!);
    }
    this.versions.set(id, program);
    return program;
  }

  /**
   * Writes the program row. Its history row is written by the row's triggers in the same
   * transaction, as for a program row a store applies from its hub.
   */
  save(tx: WriteTransaction, program: unknown, exists: boolean): void {
    const body = JSON.stringify(program);
    if (exists) tx.update('program_rules', PROGRAM_ROW_ID, { body });
    else tx.insert('program_rules', { id: PROGRAM_ROW_ID, kind: 'program', body });
  }

  private loadCurrent(): Program | undefined {
    const row = this.current.get(PROGRAM_ROW_ID);
    if (!row) return undefined;
    if (this.cached?.hlc !== row.hlc) this.cached = { hlc: row.hlc, program: loyaltyColumns['program_rules.body'](row.body) };
    return this.cached.program;
  }
}
