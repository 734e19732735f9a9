import type { Db } from '../../db/open.js';
import { contains, ListQueries } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { CAMPAIGN_SORT_FIELDS } from './campaigns.schemas.js';
import type { CampaignsRow } from '../../db/tables.generated.js';

export type CampaignRow = Omit<CampaignsRow, 'hlc'>;

const COLUMNS = 'id, name, parent_id, external_id, state, last_change';

/** Sortable first-level fields of Campaign (as read: `idcampaign`) and their columns. */
const SORTABLE: Record<(typeof CAMPAIGN_SORT_FIELDS)[number], string> = { idcampaign: 'id', name: 'name' };

export class CampaignsRepo {
  private readonly lists;
  private readonly one;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], CampaignRow>(`SELECT ${COLUMNS} FROM campaigns WHERE id = ?`);
  }

  campaignById(id: string): CampaignRow | undefined {
    return this.one.get(id);
  }

  page(name: string | undefined, paging: Paging): Page<CampaignRow> {
    return this.lists.page<CampaignRow>(
      { from: 'campaigns', select: COLUMNS, filters: [contains('name', name)], sortable: SORTABLE, defaultSort: 'idcampaign' },
      paging,
    );
  }

  insert(tx: WriteTransaction, row: WrittenRow<'campaigns'>): void {
    tx.insert('campaigns', row);
  }
}
