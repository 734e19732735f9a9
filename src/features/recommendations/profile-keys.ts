/**
 * The keys of a customer's published profile (recommendation_customers.affinities), in a
 * shorter form than the builder keeps them. Every store holds every customer's profile, up
 * to 48 keys each, so a key's bytes are paid once per customer at every store: `p:` and a
 * 26-character hex id (DESIGN §3) made a 38-byte entry, 26 of them the id. A record id is
 * published as its kind in capitals and its 13 bytes in base64url (`P` + 18 characters), and
 * read back to the builder's form; ids of other shapes (imported ones) keep the `p:` form.
 * A node reads both, since a profile is published again only when it changes. A release
 * before this one skips the capital kinds, answering as for a customer with a shorter
 * profile until it is upgraded (hub first, as always).
 */
const RECORD_ID = /^[0-9a-f]{26}$/;
const PUBLISHED = /^[PGBS][A-Za-z0-9_-]{18}$/;

/** A builder key (`p:`, `g:`, `b:` or `s:` + id) as published. */
export function publishedKey(key: string): string {
  const id = key.slice(2);
  return key[1] === ':' && RECORD_ID.test(id) ? key[0]!.toUpperCase() + Buffer.from(id, 'hex').toString('base64url') : key;
}

/** A published key in the builder's form. */
export function builderKey(key: string): string {
  return PUBLISHED.test(key) ? `${key[0]!.toLowerCase()}:${Buffer.from(key.slice(1), 'base64url').toString('hex')}` : key;
}
