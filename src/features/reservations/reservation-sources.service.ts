import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../core/errors.js';
import type { Paging } from '../../core/paging.js';
import type { IdGenerator } from '../../core/ids.js';
import { toReservationSource } from './reservation-sources.mappers.js';
import type { ReservationSourcesRepo } from './reservation-sources.repo.js';
import type { ReservationSourceRecord } from './reservation-sources.schemas.js';

export class ReservationSourcesService {
  constructor(
    private readonly repo: ReservationSourcesRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
    private readonly timeZone: string,
  ) {}

  /** The API only reads reservation sources; `loyaltyd import` loads them as master data. */
  importRecord(record: ReservationSourceRecord): void {
    const id = record.product_reservation_source_id ?? this.newId();
    if (this.repo.sourceById(id)) throw invalidParam('product_reservation_source_id', 'already_exists', id);
    const row = { id, name: record.name, state: record.state ?? 1 };
    this.writes.write(null, (tx) => this.repo.insert(tx, row));
  }

  list(paging: Paging) {
    const page = this.repo.page(paging);
    return { product_reservation_sources: page.items.map((row) => toReservationSource(row, this.timeZone)), total_items: page.total };
  }

  get(id: string) {
    const row = this.repo.sourceById(id);
    if (!row) throw notFound('product-reservation-sources', id);
    return toReservationSource(row, this.timeZone);
  }
}
