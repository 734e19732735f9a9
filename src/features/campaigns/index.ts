import type { Feature } from '../feature.js';

export const campaignsFeature: Feature = () => [];
