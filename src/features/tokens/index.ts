/**
 * Customer-interface tokens: an api user's token, the customer logins that attach a customer to
 * it (password, social network, a short login code), and the password-setup mail.
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { tokensRoutes } from './tokens.routes.js';

export const tokensFeature: Feature<Pick<FeaturePorts, 'tokens' | 'socialLogin' | 'passwordSetup' | 'authTokens'>> = (services) =>
  tokensRoutes(services);
