import { formatTimestamp } from '../../core/time.js';
import type { CampaignRow } from './campaigns.repo.js';
import type { CampaignAnswer } from './campaigns.schemas.js';

/** The Campaign structure as interface.md gives it for reads: the id is `idcampaign`. */
export function toCampaign(row: CampaignRow, timeZone: string): CampaignAnswer {
  return {
    idcampaign: row.id,
    name: row.name,
    last_change: formatTimestamp(row.last_change, timeZone, true),
    parent_id: row.parent_id,
    external_id: row.external_id,
    state: row.state,
  };
}
