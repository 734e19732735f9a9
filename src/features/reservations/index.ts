import type { Feature } from '../feature.js';

export const reservationsFeature: Feature = () => [];
