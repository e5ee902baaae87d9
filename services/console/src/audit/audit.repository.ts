import type { Insertable, Selectable } from 'kysely';
import type { AuditEventsTable, Executor } from '@partner/db';

export type AuditEventRow = Selectable<AuditEventsTable>;

export async function insertAuditEvent(db: Executor, event: Insertable<AuditEventsTable>): Promise<void> {
  await db.insertInto('audit_events').values(event).execute();
}

/** Newest first; `before` continues after the last event of a previous page. */
export async function listAuditEvents(
  db: Executor,
  options: { limit: number; before?: { at: Date; id: string } },
): Promise<AuditEventRow[]> {
  let query = db.selectFrom('audit_events').selectAll().orderBy('occurred_at', 'desc').orderBy('id', 'desc').limit(options.limit);
  const { before } = options;
  if (before) {
    query = query.where((eb) =>
      eb.or([eb('occurred_at', '<', before.at), eb.and([eb('occurred_at', '=', before.at), eb('id', '<', before.id)])]),
    );
  }
  return query.execute();
}
