/**
 * The product catalogue: products with their external ids per list (`plu_ids`), product groups,
 * product brands and purchase item types. Reward conditions and earning rules name these; head
 * office's data, written at the hub and replicated to every store.
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { ProductBrandsRepo } from './product-brands.repo.js';
import { productBrandsRoutes } from './product-brands.routes.js';
import { ProductBrandsService } from './product-brands.service.js';
import { ProductGroupsRepo } from './product-groups.repo.js';
import { productGroupsRoutes } from './product-groups.routes.js';
import { ProductGroupsService } from './product-groups.service.js';
import { ProductsRepo } from './products.repo.js';
import { productsRoutes } from './products.routes.js';
import { ProductsService } from './products.service.js';
import { PurchaseItemTypesRepo } from './purchase-item-types.repo.js';
import { purchaseItemTypesRoutes } from './purchase-item-types.routes.js';
import { PurchaseItemTypesService } from './purchase-item-types.service.js';

export const catalogFeature: Feature<Pick<FeaturePorts, 'db' | 'writes' | 'newId' | 'timeZone'>> = ({ db, writes, newId, timeZone }) => [
  ...productsRoutes(new ProductsService(new ProductsRepo(db), timeZone)),
  ...productGroupsRoutes(new ProductGroupsService(new ProductGroupsRepo(db), timeZone)),
  ...productBrandsRoutes(new ProductBrandsService(new ProductBrandsRepo(db))),
  ...purchaseItemTypesRoutes(new PurchaseItemTypesService(new PurchaseItemTypesRepo(db), writes, newId)),
];
