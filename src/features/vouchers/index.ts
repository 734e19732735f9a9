import type { Feature } from '../feature.js';

export const vouchersFeature: Feature = () => [];
