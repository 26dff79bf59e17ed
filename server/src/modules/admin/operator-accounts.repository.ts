import type { Role } from '@reelhouse/contract';
import type { Db } from '../../db/client.js';

/** Accounts as the operator's commands find and list them. */
export class OperatorAccountsRepository {
  constructor(private readonly db: Db) {}

  /** The account whose username or email is `key` (already lower-cased). */
  findByUsernameOrEmail(key: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'role'])
      .where((eb) => eb.or([eb('username', '=', key), eb('email', '=', key)]))
      .executeTakeFirst();
  }

  /** Every account (or those of one role), oldest first. */
  list(role?: Role) {
    let q = this.db.selectFrom('users').select(['username', 'email', 'role', 'banned_at', 'created_at']).orderBy('created_at');
    if (role) q = q.where('role', '=', role);
    return q.execute();
  }
}
