import type { Db } from '../../db/open.js';
import type { WriteTransaction } from '../../db/write-path.js';
import { orderBy, type Page, type Paging } from '../../http/paging.js';

export interface ExternalApplicationRow {
  id: string;
  name: string;
  state: number;
  last_change: string;
}

/** Sortable first-level fields of ExternalApplication and their columns. */
const SORTABLE = { external_application_id: 'id', name: 'name', state: 'state', last_change: 'last_change' };

export class ExternalApplicationsRepo {
  private readonly one;
  private readonly total;

  constructor(private readonly db: Db) {
    this.one = db.prepare<[string], ExternalApplicationRow>('SELECT id, name, state, last_change FROM external_applications WHERE id = ?');
    this.total = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM external_applications');
  }

  byId(id: string): ExternalApplicationRow | undefined {
    return this.one.get(id);
  }

  page(paging: Paging): Page<ExternalApplicationRow> {
    const items = this.db
      .prepare<[number, number], ExternalApplicationRow>(
        `SELECT id, name, state, last_change FROM external_applications ${orderBy(paging, SORTABLE, 'external_application_id')} LIMIT ? OFFSET ?`,
      )
      .all(paging.count, paging.offset);
    return { items, total: this.total.get()!.n };
  }

  insert(tx: WriteTransaction, application: { id: string; name: string }): void {
    tx.insert('external_applications', { ...application, state: 1 });
  }
}
