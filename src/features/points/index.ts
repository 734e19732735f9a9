import type { Feature } from '../feature.js';

export const pointsFeature: Feature = () => [];
