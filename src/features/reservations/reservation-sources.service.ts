import { notFound } from '../../errors.js';
import type { Paging } from '../../http/paging.js';
import { toReservationSource } from './reservation-sources.mappers.js';
import type { ReservationSourcesRepo } from './reservation-sources.repo.js';

export class ReservationSourcesService {
  constructor(
    private readonly repo: ReservationSourcesRepo,
    private readonly timeZone: string,
  ) {}

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
