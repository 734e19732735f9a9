import { z } from 'zod';
import { Text } from '../../core/schemas.js';

export const UserLogin = z.object({
  user_external_application_id: Text,
  login: Text,
  password: z.string().min(1),
});
export type UserLogin = z.infer<typeof UserLogin>;

export const UserRow = z.object({
  id: z.string(),
  login: z.string(),
  password_hash: z.string(),
  external_application_id: z.string(),
  legacy_basic_md5: z.string().nullable(),
  state: z.number(),
});
export type UserRow = z.infer<typeof UserRow>;

/** The answer of a user's login, for the API document; UsersService.login answers as this type. */
export const UserLoggedIn = z.object({ bearer_token: z.string() });
export type UserLoggedIn = z.infer<typeof UserLoggedIn>;
