import type { Feature } from '../feature.js';

export const ordersFeature: Feature = () => [];
