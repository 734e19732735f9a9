import type { Feature } from '../feature.js';

export const purchasesFeature: Feature = () => [];
