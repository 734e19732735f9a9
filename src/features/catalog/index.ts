import type { Feature } from '../feature.js';

export const catalogFeature: Feature = () => [];
