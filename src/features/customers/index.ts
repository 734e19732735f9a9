import type { Feature } from '../feature.js';

export const customersFeature: Feature = () => [];
