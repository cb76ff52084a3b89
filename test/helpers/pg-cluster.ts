/**
 * A PostgreSQL cluster of a test's own (scripts/pg-cluster.ts), for tests that stop and restart the
 * server: the shared TEST_DATABASE_URL cluster must stay up for the other tests. Deleted when the test
 * process exits, even if the test never reaches its cleanup.
 */
import { type PgCluster, startCluster } from '../../scripts/pg-cluster.ts';

export type { PgCluster, StopMode } from '../../scripts/pg-cluster.ts';

export async function startTestCluster(): Promise<PgCluster> {
  const cluster = await startCluster();
  const destroy = () => cluster.destroy();
  process.once('exit', destroy);
  return {
    ...cluster,
    get port() {
      return cluster.port;
    },
    destroy() {
      process.removeListener('exit', destroy);
      cluster.destroy();
    },
  };
}
