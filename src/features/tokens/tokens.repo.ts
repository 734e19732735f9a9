import type { Db } from '../../db/open.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { AuthTokensRow, TokensRow } from '../../db/tables.generated.js';
import type { ForwardedToken } from '../../sync/protocol/protocol.js';

/** A token; its customer_id is the one it is logged in as at this node. */
export type TokenRow = Pick<TokensRow, 'id' | 'api_user_id' | 'external_application_id' | 'customer_id' | 'state' | 'last_change'>;
export type AuthTokenRow = Pick<AuthTokensRow, 'id' | 'customer_id' | 'external_application_id' | 'value_hash' | 'expires_at' | 'used_at'>;

export class TokensRepo {
  private readonly byId;
  private readonly forwarded;
  private readonly authTokenByRequest;
  private readonly startSession;
  private readonly endSession;

  constructor(db: Db) {
    // A session this node made itself (store_sessions) is the customer the token is logged in
    // as here, over the one the hub replicated.
    this.byId = db.prepare<[string], TokenRow>(
      `SELECT t.id, t.api_user_id, t.external_application_id, coalesce(s.customer_id, t.customer_id) AS customer_id, t.state, t.last_change
       FROM tokens t LEFT JOIN store_sessions s ON s.token_id = t.id WHERE t.id = ?`,
    );
    this.forwarded = db.prepare<[string], ForwardedToken>(
      'SELECT id, api_user_id, external_application_id, device, setup, push_token FROM tokens WHERE id = ?',
    );
    this.startSession = db.prepare<[string, string, string]>(
      `INSERT INTO store_sessions (token_id, customer_id, started_at) VALUES (?, ?, ?)
       ON CONFLICT (token_id) DO UPDATE SET customer_id = excluded.customer_id, started_at = excluded.started_at`,
    );
    this.endSession = db.prepare<[string]>('DELETE FROM store_sessions WHERE token_id = ?');
    this.authTokenByRequest = db.prepare<[string], AuthTokenRow>(
      'SELECT id, customer_id, external_application_id, value_hash, expires_at, used_at FROM auth_tokens WHERE token_request_id = ?',
    );
  }

  tokenById(id: string): TokenRow | undefined {
    return this.byId.get(id);
  }

  forwardedToken(id: string): ForwardedToken | undefined {
    return this.forwarded.get(id);
  }

  authTokenByRequestId(requestId: string): AuthTokenRow | undefined {
    return this.authTokenByRequest.get(requestId);
  }

  insertToken(tx: WriteTransaction, row: WrittenRow<'tokens'>): void {
    tx.insert('tokens', row);
  }

  updateToken(tx: WriteTransaction, id: string, changes: Partial<WrittenRow<'tokens'>>): void {
    tx.update('tokens', id, changes);
  }

  /** Logs the token in at this node alone; the hub never learns of it. */
  startStoreSession(tokenId: string, customerId: string, startedAt: string): void {
    this.startSession.run(tokenId, customerId, startedAt);
  }

  endStoreSession(tokenId: string): void {
    this.endSession.run(tokenId);
  }

  insertAuthToken(tx: WriteTransaction, row: WrittenRow<'auth_tokens'>): void {
    tx.insert('auth_tokens', row);
  }

  markAuthTokenUsed(tx: WriteTransaction, id: string, usedAt: string): void {
    tx.update('auth_tokens', id, { used_at: usedAt });
  }

  insertPasswordSetupRequest(tx: WriteTransaction, row: WrittenRow<'password_setup_requests'>): void {
    tx.insert('password_setup_requests', row);
  }

  /** When the password-setup request's mail went out; null before, undefined for no such request. */

  markPasswordSetupSent(tx: WriteTransaction, id: string, sentAt: string): void {
    tx.update('password_setup_requests', id, { sent_at: sentAt });
  }
}
