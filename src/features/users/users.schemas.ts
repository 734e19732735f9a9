import { z } from 'zod';
import { Text } from '../../core/schemas.js';

export const UserLogin = z.object({
  user_external_application_id: Text,
  login: Text,
  password: z.string().min(1),
});
export type UserLogin = z.infer<typeof UserLogin>;

/** The answer of a user's login, for the API document; UsersService.login answers as this type. */
export const UserLoggedIn = z.object({ bearer_token: z.string() });
export type UserLoggedIn = z.infer<typeof UserLoggedIn>;
