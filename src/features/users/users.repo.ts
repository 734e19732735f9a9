import type { Db } from '../../db/open.js';
import { SyncState } from '../../sync/sync-state.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { UserSessionsRow, UsersRow } from '../../db/tables.generated.js';

/** Expired sessions a login deletes at most: a node's tills log in a few times a day each. */
const EXPIRED_PER_LOGIN = 100;

export class UsersRepo {
  private readonly byLogin;
  private readonly sessionByHash;
  private readonly expired;
  private readonly storeById;
  private readonly sync: SyncState;

  constructor(db: Db) {
    this.sync = new SyncState(db);
    this.byLogin = db.prepare<[string], UsersRow>('SELECT * FROM users WHERE login = ?');
    this.sessionByHash = db.prepare<[string], Pick<UserSessionsRow, 'user_id' | 'expires_at'> & Pick<UsersRow, 'state'>>(
      `SELECT s.user_id, s.expires_at, u.state FROM user_sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = ?`,
    );
    this.expired = db.prepare<[string], string>(`SELECT id FROM user_sessions WHERE expires_at <= ? LIMIT ${EXPIRED_PER_LOGIN}`).pluck();
    this.storeById = db.prepare<[string], number>('SELECT 1 FROM stores WHERE id = ?').pluck();
  }

  holdsStore(storeId: string): boolean {
    return this.storeById.get(storeId) !== undefined;
  }

  /** A store with a hub that has tried a round and holds no feed cursor: it never bootstrapped, its users are still at the hub. */
  awaitsBootstrap(): boolean {
    return this.sync.get('last_attempt_at') !== undefined && this.sync.get('cursor') === undefined;
  }

  userByLogin(login: string): UsersRow | undefined {
    return this.byLogin.get(login);
  }

  sessionByTokenHash(hash: string) {
    return this.sessionByHash.get(hash);
  }

  insertUser(tx: WriteTransaction, user: WrittenRow<'users'>): void {
    tx.insert('users', user);
  }

  insertSession(tx: WriteTransaction, session: { id: string; token_hash: string; user_id: string; expires_at: string }): void {
    tx.insert('user_sessions', session);
  }

  /**
   * Deletes sessions expired at `now` (ISO), some at each call: no call is answered with one,
   * and each login adds one, so a node would otherwise keep every session it ever gave.
   */
  deleteExpiredSessions(tx: WriteTransaction, now: string): void {
    for (const id of this.expired.all(now)) tx.remove('user_sessions', id);
  }
}
