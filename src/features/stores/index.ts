import type { Feature } from '../feature.js';

export const storesFeature: Feature = () => [];
