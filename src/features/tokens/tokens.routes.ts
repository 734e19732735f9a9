import { BOTH, CUSTOMER, endpoint, type Endpoint } from '../../http/endpoint.js';
import type { Principal } from '../../http/principal.js';
import type { AuthTokensService } from './auth-tokens.service.js';
import type { PasswordSetupService } from './password-setup.service.js';
import type { SocialLoginService } from './social-login.service.js';
import {
  AuthTokenIssued,
  AuthTokenLogin,
  AuthTokenQuery,
  CreateToken,
  CustomerLogin,
  CustomerSession,
  PasswordSetupEmail,
  SocialNetworkLogin,
  TokenCreated,
  TokenPath,
  UpdateToken,
} from './tokens.schemas.js';
import type { TokensService } from './tokens.service.js';

export interface TokenServices {
  tokens: TokensService;
  socialLogin: SocialLoginService;
  passwordSetup: PasswordSetupService;
  authTokens: AuthTokensService;
}

/** Whose token a credential call's caller holds: a customer app's, or none. */
function tokenIdOf(principal: Principal): string | undefined {
  return principal.kind === 'token' ? principal.tokenId : undefined;
}

export function tokensRoutes({ tokens, socialLogin, passwordSetup, authTokens }: TokenServices): Endpoint[] {
  /** At a store, the session the hub made for its caller's token. */
  const keepSession = (answer: { body: unknown }, principal: Principal) => {
    const tokenId = tokenIdOf(principal);
    const customerId = (answer.body as { data?: { customer_id?: unknown } } | undefined)?.data?.customer_id;
    if (tokenId !== undefined && typeof customerId === 'string') tokens.adoptChainSession(tokenId, customerId);
  };
  return [
    endpoint({
      method: 'post',
      path: '/tokens',
      interfaces: CUSTOMER,
      access: 'api-user',
      credentials: true,
      status: 201,
      body: CreateToken,
      answer: TokenCreated,
      handle: ({ body }, context) => tokens.create(body, context.principal.kind === 'api-user' ? context.principal.apiUserId : '', context.ip),
    }),
    endpoint({
      method: 'put',
      path: '/tokens/:token_id',
      interfaces: CUSTOMER,
      status: 204,
      params: TokenPath,
      body: UpdateToken,
      handle: ({ params, body }, context) => tokens.update(params.token_id, body, context),
    }),
    endpoint({
      method: 'post',
      path: '/tokens/:token_id/actions/login',
      interfaces: CUSTOMER,
      params: TokenPath,
      body: CustomerLogin,
      answer: CustomerSession,
      atHub: true,
      afterHub: keepSession,
      handle: ({ params, body }, context) => tokens.login(params.token_id, body, context),
    }),
    endpoint({
      method: 'post',
      path: '/tokens/:token_id/actions/logout',
      interfaces: CUSTOMER,
      status: 204,
      params: TokenPath,
      atHub: true,
      afterHub: (_answer, principal) => {
        const tokenId = tokenIdOf(principal);
        if (tokenId !== undefined) tokens.endChainSession(tokenId);
      },
      handle: ({ params }, context) => tokens.logout(params.token_id, context),
    }),
    endpoint({
      method: 'post',
      path: '/tokens/:token_id/actions/social-network-login',
      interfaces: CUSTOMER,
      params: TokenPath,
      body: SocialNetworkLogin,
      answer: CustomerSession,
      atHub: true,
      afterHub: keepSession,
      handle: ({ params, body }, context) => socialLogin.login(params.token_id, body, context),
    }),
    endpoint({
      method: 'post',
      path: '/tokens/:token_id/actions/send-password-setup-email',
      interfaces: CUSTOMER,
      status: 204,
      params: TokenPath,
      body: PasswordSetupEmail,
      atHub: true,
      handle: ({ params, body }, context) => passwordSetup.send(params.token_id, body, context),
    }),
    endpoint({
      // interface.md shows this action under the enterprise path; the OpenAPI file under
      // the customer one. Both are served.
      method: 'get',
      path: '/tokens/:token_id/actions/auth-token',
      interfaces: BOTH,
      writes: true,
      credentials: true,
      params: TokenPath,
      query: AuthTokenQuery,
      answer: AuthTokenIssued,
      atHub: true,
      handle: ({ params, query }, context) => authTokens.issue(params.token_id, query, context),
    }),
    endpoint({
      method: 'post',
      path: '/tokens/:token_id/actions/authentication-token-login',
      interfaces: CUSTOMER,
      params: TokenPath,
      body: AuthTokenLogin,
      answer: CustomerSession,
      atHub: true,
      afterHub: keepSession,
      handle: ({ params, body }, context) => authTokens.login(params.token_id, body, context),
    }),
  ];
}
