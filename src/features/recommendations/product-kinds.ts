/**
 * The group and brand of products, kept in memory while the catalogue does not change:
 * triggers bump recommendation_catalog_version with every change to products, read once per
 * answer. A product not found is remembered too, until the next change.
 */
import type { ProductKind } from './purchase-lines.js';
import type { RecommendationsRepo } from './recommendations.repo.js';

/** A bound on products remembered, since a caller may name any number of unknown ids. */
const CAPACITY = 200_000;

export class ProductKinds {
  private version = -1;
  private readonly known = new Map<string, ProductKind | null>();

  constructor(private readonly repo: RecommendationsRepo) {}

  of(productIds: string[]): Map<string, ProductKind> {
    const version = this.repo.catalogVersion();
    if (version !== this.version || this.known.size > CAPACITY) {
      this.known.clear();
      this.version = version;
    }
    const missing = productIds.filter((id) => !this.known.has(id));
    if (missing.length > 0) {
      const found = this.repo.productKinds(missing);
      for (const id of missing) this.known.set(id, found.get(id) ?? null);
    }
    const kinds = new Map<string, ProductKind>();
    for (const id of productIds) {
      const kind = this.known.get(id);
      if (kind) kinds.set(id, kind);
    }
    return kinds;
  }
}
