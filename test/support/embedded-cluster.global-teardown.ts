import { removeMigratedCluster } from './test-database';

/** Jest's global tear-down matching embedded-cluster.global-setup.ts. */
export default removeMigratedCluster;
