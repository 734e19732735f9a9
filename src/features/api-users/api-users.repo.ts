import type { Db } from '../../db/open.js';
import type { ApiUsersRow } from '../../db/tables.generated.js';
import type { WriteTransaction } from '../../db/write-path.js';

export type ApiUserRow = Pick<ApiUsersRow, 'id' | 'user_name' | 'name' | 'state'>;

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
