import { InitialSchema1763800000000 } from './1763800000000-initial-schema';

/** Every migration, in order. Listed explicitly so bundled and test builds find them without globbing. */
export const MIGRATIONS = [InitialSchema1763800000000];
