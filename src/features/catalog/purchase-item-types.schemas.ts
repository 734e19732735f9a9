import { z } from 'zod';

export const PurchaseItemTypeRow = z.object({ id: z.string(), name: z.string() });
export type PurchaseItemTypeRow = z.infer<typeof PurchaseItemTypeRow>;
