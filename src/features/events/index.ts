import type { Feature } from '../feature.js';

export const eventsFeature: Feature = () => [];
