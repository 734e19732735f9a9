/**
 * The products a cash desk's plu ids name, kept in memory: each bill asks for several, and
 * each answer from SQLite walks four B-trees of a catalogue too large for the page cache.
 * Answers (also "no such product") are kept per plu id and all of them forgotten whenever
 * products or their external ids may have changed — a write here, a replicated change, or
 * an import by another process, which the write path's table versions tell without a query
 * (as src/loyalty/rewards-catalog.ts) — or when `capacity` answers are kept: a catalogue up
 * to that size stays whole, a larger one is read again as its tills ask for it. (A map kept
 * in least-recently-used order slows down as the entries it deletes pile up in front of
 * its first key, and a linked list costs each entry more than the entry itself.)
 */
import type { WritePath } from '../../db/write-path.js';
import type { CheckoutRepo, ProductMatch } from './checkout.repo.js';

/**
 * About 160 bytes an entry in the heap (measured with the checkout bench's catalogue: its
 * 100,000 products take 16 MB), so at most ~21 MB of the daemon's 300 MB.
 */
export const PRODUCT_MATCHES_CAPACITY = 131_072;

export type MatchProduct = (listCode: string, code: string) => ProductMatch | undefined;

export class ProductMatches {
  /** By list code, then code; null: no active product has that plu id. */
  private byList = new Map<string, Map<string, ProductMatch | null>>();
  private size = 0;
  /** Group and brand ids shared by many products are held once. */
  private ids = new Map<string, string>();
  private version = '';

  constructor(
    private readonly repo: CheckoutRepo,
    private readonly writes: WritePath,
    private readonly capacity = PRODUCT_MATCHES_CAPACITY,
  ) {}

  /** A lookup for one bill: the tables' versions are checked once, not once per item. */
  lookup(): MatchProduct {
    const version = this.writes.versions.tableVersion('products', 'product_external_ids');
    if (version !== this.version) {
      this.forget();
      this.version = version;
    }
    return (listCode, code) => this.match(listCode, code);
  }

  private match(listCode: string, code: string): ProductMatch | undefined {
    let byCode = this.byList.get(listCode);
    let match = byCode?.get(code);
    if (match === undefined) {
      if (this.size >= this.capacity) {
        this.forget();
        byCode = undefined;
      }
      if (!byCode) this.byList.set(listCode, (byCode = new Map()));
      match = this.compact(this.repo.productByPluId(listCode, code));
      byCode.set(code, match);
      this.size += 1;
    }
    return match ?? undefined;
  }

  private forget(): void {
    this.byList = new Map();
    this.size = 0;
    this.ids = new Map();
  }

  private compact(match: ProductMatch | undefined): ProductMatch | null {
    if (match === undefined) return null;
    return { id: match.id, product_group_id: this.shared(match.product_group_id), product_brand_id: this.shared(match.product_brand_id) };
  }

  private shared(id: string | null): string | null {
    if (id === null) return null;
    const held = this.ids.get(id);
    if (held !== undefined) return held;
    this.ids.set(id, id);
    return id;
  }
}
