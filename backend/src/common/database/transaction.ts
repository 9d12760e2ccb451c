import type { EntityManager } from 'typeorm';

/**
 * A transaction (or the pool) that a repository function runs its one
 * statement on. Services that change several tables in one transaction open
 * it and hand it to each owner's service, which passes it to its repository.
 */
export type Queryable = Pick<EntityManager, 'query'>;
