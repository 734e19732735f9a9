import type { Db } from '../../db/open.js';
import type { WriteTransaction } from '../../db/write-path.js';
import type { UserRow } from './users.schemas.js';

export class UsersRepo {
  private readonly byLogin;
  private readonly sessionByHash;

  constructor(db: Db) {
    this.byLogin = db.prepare<[string], UserRow>('SELECT * FROM users WHERE login = ?');
    this.sessionByHash = db.prepare<[string], { user_id: string; expires_at: string; state: number }>(
      `SELECT s.user_id, s.expires_at, u.state FROM user_sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = ?`,
    );
  }

  userByLogin(login: string): UserRow | undefined {
    return this.byLogin.get(login);
  }

  sessionByTokenHash(hash: string) {
    return this.sessionByHash.get(hash);
  }

  insertUser(tx: WriteTransaction, user: UserRow): void {
    tx.insert('users', user);
  }

  insertSession(tx: WriteTransaction, session: { id: string; token_hash: string; user_id: string; expires_at: string }): void {
    tx.insert('user_sessions', session);
  }
}
