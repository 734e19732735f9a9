import type { Clock } from '../../core/clock.js';
import type { WritePath } from '../../db/write-path.js';
import { badRequest, invalidParam, notFound, type InvalidParam } from '../../core/errors.js';
import { fromMinor } from '../../core/money.js';
import type { IdGenerator } from '../../core/ids.js';
import { parseTimestamp } from '../../core/time.js';
import { toCampaignProduct } from './campaign-products.mappers.js';
import type { CampaignProductsRepo, CampaignProductRow } from './campaign-products.repo.js';
import type { CampaignProductQuery, CreateCampaignProduct } from './campaign-products.schemas.js';

/** A percentage discount is at most 100 %, in minor units as every value is held. */
const WHOLE_PERCENT_MINOR = 100_00;
const PERCENTAGE = 1;

/** What CampaignProductsService is built from. */
export interface CampaignProductsServiceOptions {
  repo: CampaignProductsRepo;
  writes: WritePath;
  newId: IdGenerator;
  clock: Clock;
  timeZone: string;
}

export class CampaignProductsService {
  private readonly repo: CampaignProductsRepo;
  private readonly writes: WritePath;
  private readonly newId: IdGenerator;
  private readonly clock: Clock;
  private readonly timeZone: string;

  constructor(options: CampaignProductsServiceOptions) {
    const { repo, writes, newId, clock, timeZone } = options;
    this.repo = repo;
    this.writes = writes;
    this.newId = newId;
    this.clock = clock;
    this.timeZone = timeZone;
  }

  create({ campaign_product: product }: CreateCampaignProduct): { campaign_product_id: string } {
    const validFrom = this.instant('campaign_product.valid_from', product.valid_from);
    const validTo = this.instant('campaign_product.valid_to', product.valid_to);
    const refused: InvalidParam[] = [];
    if (!this.repo.productExists(product.product_id)) {
      refused.push({ name: 'campaign_product.product_id', reason: 'not_found', value: product.product_id });
    }
    if (!this.repo.campaignExists(product.campaign_id)) {
      refused.push({ name: 'campaign_product.campaign_id', reason: 'not_found', value: product.campaign_id });
    }
    if (product.value < 0 || (product.value_type_id === PERCENTAGE && product.value > WHOLE_PERCENT_MINOR)) {
      const message = 'A discount is 0 to 100 %, a final price 0 or more';
      refused.push({ name: 'campaign_product.value', reason: 'not_allowed_value', value: String(fromMinor(product.value)), message });
    }
    if (validTo < validFrom) {
      refused.push({
        name: 'campaign_product.valid_to',
        reason: 'not_allowed_value',
        value: product.valid_to,
        message: 'valid_to is before valid_from',
      });
    }
    if (refused.length) throw badRequest(refused);
    const row = {
      id: this.newId(),
      product_id: product.product_id,
      campaign_id: product.campaign_id,
      currency_id: product.currency_id,
      value_minor: product.value,
      value_type_id: product.value_type_id,
      valid_from: new Date(validFrom).toISOString(),
      valid_to: new Date(validTo).toISOString(),
      display_in: JSON.stringify([...new Set(product.display_in ?? [])]),
      type_id: product.type_id,
      name: product.presentation_data.name,
      presentation_data: JSON.stringify(product.presentation_data),
      state: 1,
    };
    this.writes.write({ kind: 'campaign-products.create', payload: { campaign_product: row } }, (tx) => this.repo.insert(tx, row));
    return { campaign_product_id: row.id };
  }

  list(query: CampaignProductQuery) {
    const at = new Date(this.clock()).toISOString();
    const page = this.repo.page(
      {
        name: query.name,
        code: query.code,
        display_in: query.display_in,
        type_ids: query.type_id,
        store_id: query.store_id,
        value_type_id: query.value_type_id,
        valid_now: query.is_valid === undefined ? undefined : { at, valid: query.is_valid },
        valid_from: query.valid_from === undefined ? undefined : new Date(this.instant('valid_from', query.valid_from)).toISOString(),
        valid_to: query.valid_to === undefined ? undefined : new Date(this.instant('valid_to', query.valid_to)).toISOString(),
      },
      query,
    );
    return { campaign_products: page.items.map((row) => toCampaignProduct(row, this.timeZone)), total_items: page.total };
  }

  get(id: string) {
    return toCampaignProduct(this.existingCampaignProduct(id), this.timeZone);
  }

  /** The campaign product of a path, or 404: its store records use it too. */
  existingCampaignProduct(id: string): CampaignProductRow {
    const row = this.repo.campaignProductById(id);
    if (!row) throw notFound('campaign-products', id);
    return row;
  }

  private instant(name: string, text: string): number {
    const ms = parseTimestamp(text, this.timeZone);
    if (ms === undefined) throw invalidParam(name, 'invalid_value_format', text, 'Expected YYYY-MM-DD HH:MM:SS or ISO 8601');
    return ms;
  }
}
