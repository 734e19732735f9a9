/**
 * Social-network login (DESIGN §4): the provider's token is a JWT verified offline
 * against the keys configured for that network (a JWKS file or a PEM public key); the
 * customer is the one whose e-mail the verified token names.
 */
import { readFileSync } from 'node:fs';
import { createLocalJWKSet, importSPKI, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../../core/config.js';
import { customerBlocked, invalidParam, unauthorized } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import type { CustomersRepo } from '../customers/customers.repo.js';
import type { CustomerSession, SocialNetworkLogin } from './tokens.schemas.js';
import type { TokensService } from './tokens.service.js';

type SocialNetworkConfig = Config['social_networks'][string];

export class SocialLoginService {
  private readonly keySets = new Map<string, JWTVerifyGetKey>();

  constructor(
    private readonly networks: Config['social_networks'],
    private readonly customers: CustomersRepo,
    private readonly tokens: TokensService,
  ) {}

  async login(tokenId: string, request: SocialNetworkLogin, context: RequestContext): Promise<CustomerSession> {
    const token = this.tokens.ownToken(tokenId, context);
    const { social_network_id: networkId, social_network_token: jwt } = request.social_network_credentials;
    const network = this.networks[networkId];
    if (!network) throw invalidParam('social_network_credentials.social_network_id', 'not_found', networkId);
    let email: unknown;
    let emailVerified: unknown;
    try {
      const { payload } = await jwtVerify(jwt, this.keysOf(networkId, network), {
        issuer: network.issuer,
        audience: network.audience,
      });
      email = payload[network.email_claim];
      emailVerified = payload.email_verified;
    } catch {
      throw unauthorized(`The ${networkId} token is not valid`);
    }
    if (typeof email !== 'string') throw unauthorized(`The ${networkId} token names no e-mail address`);
    // Anyone can put any address on a provider account: only an address the provider says it
    // checked (Google sends true, Apple "true") identifies a customer; a token silent about it does not.
    if (emailVerified !== true && emailVerified !== 'true') throw unauthorized(`The ${networkId} token names an unverified e-mail address`);
    const customer = this.customers.credentialsByEmail(email);
    if (!customer) throw invalidParam('social_network_credentials.social_network_token', 'not_found', email, 'No customer has this e-mail address');
    if (customer.state !== 1) throw customerBlocked();
    return this.tokens.startSession(token, customer);
  }

  private keysOf(networkId: string, network: SocialNetworkConfig): JWTVerifyGetKey {
    let keys = this.keySets.get(networkId);
    if (!keys) {
      keys = loadKeys(readFileSync(network.keys_file, 'utf8'));
      this.keySets.set(networkId, keys);
    }
    return keys;
  }
}

function loadKeys(text: string): JWTVerifyGetKey {
  if (text.includes('-----BEGIN PUBLIC KEY-----')) {
    // A PEM key carries no algorithm; the token's header names it, and jwtVerify still
    // checks the signature against this one key.
    return async (header) => importSPKI(text, header.alg);
  }
  return createLocalJWKSet(JSON.parse(text));
}
