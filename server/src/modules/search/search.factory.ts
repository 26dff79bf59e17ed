import type { Db, Dialect } from '../../db/client.js';
import { SEARCH_LIMITS, type SearchLimits } from './bounded-search.js';
import { PostgresSearchRepository } from './postgres-search.repository.js';
import { SearchService } from './search.service.js';
import type { SearchStrategy } from './search-strategy.js';
import { SqliteSearchRepository } from './sqlite-search.repository.js';

/** Each database's search strategy: the one place that tells them apart. */
const STRATEGIES: Record<Dialect, (db: Db) => SearchStrategy> = {
  sqlite: (db) => new SqliteSearchRepository(db),
  postgres: (db) => new PostgresSearchRepository(db),
};

/** The search of this database, its strategy chosen once; tests pass small limits. */
export function createSearch(db: Db, dialect: Dialect, limits: SearchLimits = SEARCH_LIMITS): SearchService {
  return new SearchService(STRATEGIES[dialect](db), limits);
}
