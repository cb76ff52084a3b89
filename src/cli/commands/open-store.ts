import type { Config } from '../../config.ts';
import type { Store } from '../../store/database.ts';
import { StoreOpenError } from '../../store/store-open-error.ts';

/**
 * Opens the configured store and brings its schema up to date (loaded here, so that `--help` need not);
 * with `checkIntegrity` (serve), a SQLite file whose pages SQLite finds broken is refused rather than served.
 */
export async function openMigratedStore(config: Config, { checkIntegrity = false } = {}): Promise<Store> {
  const { migrateToLatest, openStore } = await import('../../store/database.ts');
  const store = openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgPoolSize: config.pgPoolSize,
    changeLogSize: config.changeLogSize,
  });
  try {
    await migrateToLatest(store);
    const problem = checkIntegrity ? (await import('../../store/integrity.ts')).integrityProblem(store) : null;
    if (problem) throw new Error(`the integrity check (PRAGMA quick_check) failed: ${problem}`);
  } catch (error) {
    await store.close().catch(() => {});
    // A file SQLite opens but cannot read (corrupt past its header), a database that refuses the schema.
    throw new StoreOpenError(store.location, (error as Error).message);
  }
  return store;
}
