import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../core/errors.js';
import type { IdGenerator } from '../../core/ids.js';
import { toCampaign } from './campaigns.mappers.js';
import type { CampaignsRepo } from './campaigns.repo.js';
import type { CampaignQuery, CreateCampaign, ImportedCampaign } from './campaigns.schemas.js';

export class CampaignsService {
  constructor(
    private readonly repo: CampaignsRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
    private readonly timeZone: string,
  ) {}

  create({ campaign }: CreateCampaign): { campaign_id: string } {
    const row = this.rowOf(this.newId(), campaign);
    this.writes.write({ kind: 'campaigns.create', payload: { campaign: row } }, (tx) => this.repo.insert(tx, row));
    return { campaign_id: row.id };
  }

  /** One campaign of an import file: master data, loaded on the hub and not queued as a command. */
  importRecord(record: ImportedCampaign): void {
    const id = record.campaign_id ?? this.newId();
    if (this.repo.campaignById(id)) throw invalidParam('campaign_id', 'already_exists', id);
    const row = this.rowOf(id, record.campaign);
    this.writes.write(null, (tx) => this.repo.insert(tx, row));
  }

  private rowOf(id: string, campaign: CreateCampaign['campaign']) {
    const parentId = campaign.parent_id ?? null;
    if (parentId !== null && !this.repo.campaignById(parentId)) throw invalidParam('campaign.parent_id', 'not_found', parentId);
    return { id, name: campaign.name, parent_id: parentId, external_id: campaign.external_id ?? null, state: 1 };
  }

  list(query: CampaignQuery) {
    const page = this.repo.page(query.name, query);
    return { campaigns: page.items.map((row) => toCampaign(row, this.timeZone)), total_items: page.total };
  }

  get(id: string) {
    const row = this.repo.campaignById(id);
    if (!row) throw notFound('campaigns', id);
    return toCampaign(row, this.timeZone);
  }
}
