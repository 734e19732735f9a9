import { fromMilli } from '../../core/money.js';
import { formatOptionalTimestamp } from '../../core/time.js';
import type { PointRow } from '../../loyalty/points.repo.js';
import type { PointAnswer } from './points.schemas.js';

/**
 * Point as interface.md shows it; a redemption's assigned points are negative. The 2021
 * OpenAPI schema requires partner_id and point_type_id as strings, so a record without a
 * partner answers an empty string rather than null.
 */
export function toPoint(row: PointRow, availableMilli: number, timeZone: string): PointAnswer {
  return {
    point_id: row.id,
    customer_id: row.customer_id,
    assigned_points: fromMilli(row.kind === 'collection' ? row.points_milli : -row.points_milli),
    available_points: fromMilli(availableMilli),
    point_type_id: row.point_type_id ?? '',
    partner_id: row.partner_id ?? '',
    valid_to: formatOptionalTimestamp(row.valid_to, timeZone),
    state: row.state,
  };
}
