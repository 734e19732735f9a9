import type { Db } from '../../db/open.js';
import type { WriteTransaction } from '../../db/write-path.js';

export interface ApiUserRow {
  id: string;
  user_name: string;
  name: string;
  state: number;
}

export class ApiUsersRepo {
  private readonly byUserName;

  constructor(db: Db) {
    this.byUserName = db.prepare<[string], ApiUserRow>('SELECT id, user_name, name, state FROM api_users WHERE user_name = ?');
  }

  byName(userName: string): ApiUserRow | undefined {
    return this.byUserName.get(userName);
  }

  insert(tx: WriteTransaction, row: ApiUserRow): void {
    tx.insert('api_users', { ...row });
  }
}
