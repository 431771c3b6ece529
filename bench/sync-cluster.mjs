// A private PostgreSQL cluster for the sync bench (bench/sync.mjs), started as the tests start theirs
// (scripts/postgres-cluster.mjs, shared): undefined when PostgreSQL is not installed. Its server is
// tracked, so a bench that fails leaves no cluster behind.
import { postgresBin, startPostgresCluster } from '../scripts/postgres-cluster.mjs';
import { track } from './lib/proc.mjs';

export async function startCluster() {
  if (!postgresBin()) return undefined;
  const cluster = await startPostgresCluster({ user: 'bench', track });
  return {
    url: cluster.url(),
    psql: (sql) => cluster.psql(sql),
    psqlCommand: cluster.psqlCommand(),
    env: cluster.env,
    stop: cluster.stop,
  };
}
