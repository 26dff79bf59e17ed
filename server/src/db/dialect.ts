/** The two databases the same query code runs on. */
export type Dialect = 'sqlite' | 'postgres';
