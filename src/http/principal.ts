/** Who is calling, as established by src/http/authenticate.ts. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string; scheme: 'bearer' | 'legacy-basic' }
  | { kind: 'api-user'; apiUserId: string }
  | { kind: 'token'; apiUserId: string; tokenId: string; customerId: string | null };
