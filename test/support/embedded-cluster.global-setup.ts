import { prepareMigratedCluster } from './test-database';

/** Jest's global set-up of the projects that start test servers: the run's migrated embedded cluster (test-database.ts). */
export default prepareMigratedCluster;
