import type { WritePath } from '../../db/write-path.js';
import { notFound } from '../../core/errors.js';
import type { Paging } from '../../core/paging.js';
import type { IdGenerator } from '../../core/ids.js';
import { formatTimestamp } from '../../core/time.js';
import type { ExternalApplicationRow, ExternalApplicationsRepo } from './external-applications.repo.js';
import type { ExternalApplicationAnswer } from './external-applications.schemas.js';

export class ExternalApplicationsService {
  constructor(
    private readonly repo: ExternalApplicationsRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
    private readonly timeZone: string,
  ) {}

  create(name: string): { external_application_id: string } {
    const id = this.newId();
    this.writes.write(null, (tx) => this.repo.insert(tx, { id, name }));
    return { external_application_id: id };
  }

  list(paging: Paging) {
    const page = this.repo.page(paging);
    return { customer_external_applications: page.items.map((row) => this.toWire(row)), total_items: page.total };
  }

  get(id: string) {
    const row = this.repo.byId(id);
    if (!row) throw notFound('customer-external-applications', id);
    return this.toWire(row);
  }

  private toWire(row: ExternalApplicationRow): ExternalApplicationAnswer {
    return {
      external_application_id: row.id,
      name: row.name,
      state: row.state,
      last_change: formatTimestamp(row.last_change, this.timeZone, true),
    };
  }
}
