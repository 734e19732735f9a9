import { z } from 'zod';
import { Text } from '../../core/schemas.js';

export const Device = z.object({
  device_id: z.string().optional(),
  device_system: z.string().optional(),
  device_name: z.string().optional(),
  device_type: z.string().optional(),
});
export type Device = z.infer<typeof Device>;

export const Setup = z.object({
  language_id: z.string().optional(),
  external_application_id: z.string().optional(),
  allowed_gps: z.boolean().optional(),
  allowed_notifications: z.boolean().optional(),
});
export type Setup = z.infer<typeof Setup>;

export const CreateToken = z.object({
  device: Device,
  setup: Setup,
  external_application_id: z.string().optional(),
  push_token: z.string().optional(),
});
export type CreateToken = z.infer<typeof CreateToken>;

export const UpdateToken = z.object({ setup: Setup, push_token: z.string().optional() });
export type UpdateToken = z.infer<typeof UpdateToken>;

export const TokenPath = z.object({ token_id: z.string().min(1) });

export const CustomerLogin = z.object({
  login_type: z.enum(['card', 'email']),
  login_value: Text,
  password: z.string().min(1),
});
export type CustomerLogin = z.infer<typeof CustomerLogin>;

export const SocialNetworkLogin = z.object({
  social_network_credentials: z.object({ social_network_id: Text, social_network_token: Text }),
});
export type SocialNetworkLogin = z.infer<typeof SocialNetworkLogin>;

export const PasswordSetupEmail = z.object({ email: z.email() });
export type PasswordSetupEmail = z.infer<typeof PasswordSetupEmail>;

export const AuthTokenQuery = z.object({
  external_application_id: Text,
  token_type: z.enum(['1', '2']).default('1'),
});
export type AuthTokenQuery = z.infer<typeof AuthTokenQuery>;

export const AuthTokenLogin = z.object({
  token: Text,
  token_request_id: Text,
  application_id: z.string().optional(),
});
export type AuthTokenLogin = z.infer<typeof AuthTokenLogin>;

/* Answers, for the API document (src/http/openapi.ts); the services answer as these types. */

export const TokenCreated = z.object({ token_id: z.string() });
export type TokenCreated = z.infer<typeof TokenCreated>;

/** The answer of the login actions: the customer the token is now a session of. */
export const CustomerSession = z.object({ customer_id: z.string() });
export type CustomerSession = z.infer<typeof CustomerSession>;

export const AuthTokenIssued = z.object({
  authentication_token: z.string(),
  token: z.string().meta({ description: 'authentication_token again, under the name the 2021 interface reads' }),
  token_request_id: z.string(),
  valid_to: z.string().meta({ description: "YYYY-MM-DD HH:MM:SS in the store's time zone" }),
});
export type AuthTokenIssued = z.infer<typeof AuthTokenIssued>;
