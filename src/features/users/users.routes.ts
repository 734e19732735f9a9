import { endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import { UserLoggedIn, UserLogin } from './users.schemas.js';
import type { UsersService } from './users.service.js';

export function usersRoutes(users: UsersService): Endpoint[] {
  return [
    endpoint({
      method: 'post',
      path: '/users/actions/login',
      interfaces: ENTERPRISE,
      access: 'public',
      credentials: true,
      summary: 'Logs a user in: the bearer token of the enterprise interface',
      body: UserLogin,
      answer: UserLoggedIn,
      handle: ({ body }, context) => users.login(body, context.ip),
    }),
  ];
}
