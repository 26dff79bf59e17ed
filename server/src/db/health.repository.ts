import type { Db } from './client.js';

/** What the healthcheck asks of the database. */
export class HealthRepository {
  constructor(private readonly db: Db) {}

  /** Whether the database answers a read of a table the migrations made. */
  reachable(): Promise<boolean> {
    return this.db
      .selectFrom('settings')
      .select('key')
      .limit(1)
      .execute()
      .then(
        () => true,
        () => false,
      );
  }
}
