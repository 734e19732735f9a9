import { newSecret } from '../../auth/secrets.js';
import type { WritePath } from '../../db/write-path.js';
import { unauthorized } from '../../core/errors.js';
import type { IdGenerator } from '../../core/ids.js';
import type { ApiUsersRepo } from './api-users.repo.js';

/**
 * Api-users are the operator-issued customer-interface credential: the user name a
 * customer app puts before the token in its Basic header (DESIGN §4).
 */
export class ApiUsersService {
  constructor(
    private readonly repo: ApiUsersRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
  ) {}

  create(name: string): { user_name: string } {
    // The user name travels in every customer-app request, so it is unguessable.
    const userName = `api-${newSecret(12)}`;
    this.writes.write(null, (tx) => this.repo.insert(tx, { id: this.newId(), user_name: userName, name, state: 1 }));
    return { user_name: userName };
  }

  authenticate(userName: string): string {
    const apiUser = this.repo.byName(userName);
    if (!apiUser || apiUser.state !== 1) throw unauthorized('Unknown api user');
    return apiUser.id;
  }
}
