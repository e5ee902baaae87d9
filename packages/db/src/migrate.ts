import { sql, type Kysely } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import { migrations } from './migrations/index.js';

// Any constant shared by every process that migrates this database.
const MIGRATION_LOCK = 0x70_74_72_6d; // "ptrm"

/**
 * Runs every pending migration. Safe to run twice (applied ones are skipped) and from several
 * processes at once: a session advisory lock makes them take turns, and the later ones find nothing
 * left to do.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
    try {
      const migrator = new Migrator({ db: conn, provider: { getMigrations: () => Promise.resolve(migrations) } });
      return await migrator.migrateToLatest();
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
    }
  });
}
