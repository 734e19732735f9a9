import type { Db } from '../../db/open.js';
import type { WriteTransaction } from '../../db/write-path.js';
import { ListQueries } from '../../db/list-query.js';
import type { Page, Paging } from '../../core/paging.js';
import type { ExternalApplicationsRow } from '../../db/tables.generated.js';
import type { EXTERNAL_APPLICATION_SORT_FIELDS } from './external-applications.schemas.js';

export type ExternalApplicationRow = Omit<ExternalApplicationsRow, 'hlc'>;

/** Sortable first-level fields of ExternalApplication and their columns. */
const SORTABLE: Record<(typeof EXTERNAL_APPLICATION_SORT_FIELDS)[number], string> = { external_application_id: 'id', name: 'name' };

export class ExternalApplicationsRepo {
  private readonly one;
  private readonly firstActive;
  private readonly lists;

  constructor(db: Db) {
    this.one = db.prepare<[string], ExternalApplicationRow>('SELECT id, name, state, last_change FROM external_applications WHERE id = ?');
    this.firstActive = db.prepare<[], Pick<ExternalApplicationsRow, 'id'>>(
      'SELECT id FROM external_applications WHERE state = 1 ORDER BY id LIMIT 2',
    );
    this.lists = new ListQueries(db);
  }

  byId(id: string): ExternalApplicationRow | undefined {
    return this.one.get(id);
  }

  /** The id of the chain's one active application, or undefined when it has none or several. */
  soleActiveId(): string | undefined {
    const active = this.firstActive.all();
    return active.length === 1 ? active[0]!.id : undefined;
  }

  page(paging: Paging): Page<ExternalApplicationRow> {
    return this.lists.page(
      {
        from: 'external_applications',
        select: 'id, name, state, last_change',
        filters: [],
        sortable: SORTABLE,
        defaultSort: 'external_application_id',
      },
      paging,
    );
  }

  insert(tx: WriteTransaction, application: { id: string; name: string }): void {
    tx.insert('external_applications', { ...application, state: 1 });
  }
}
