import { sql, type RawBuilder } from 'kysely';
import { writeTimestamp, type Executor, type ItemRow, type ItemUpdate } from '@partner/db';

/**
 * A model's next `model_updated_at`: the database clock, and always after the previous stamp, so every
 * upload attempt of an item gets a stamp of its own even within one millisecond.
 */
const nextModelStamp = (): RawBuilder<Date> =>
  sql<Date>`greatest(date_trunc('milliseconds', clock_timestamp()), coalesce(model_updated_at + interval '1 millisecond', '-infinity'))`;

/** A model upload begins: the item goes `processing`; its new `model_updated_at` identifies the attempt. */
export async function startModelUpload(tx: Executor, id: string): Promise<ItemRow | undefined> {
  return tx
    .updateTable('items')
    .set({ model_status: 'processing', model_failure_reason: null, model_updated_at: nextModelStamp(), updated_at: writeTimestamp() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The outcome (ready or failed) of the model upload that `startModelUpload` stamped `attempt`; written
 * only while that upload is still the latest one, so a slow upload never overwrites a newer one's state.
 */
export async function settleModelUpload(
  tx: Executor,
  id: string,
  attempt: Date,
  changes: Omit<ItemUpdate, 'updated_at' | 'model_status' | 'model_updated_at'> & { model_status: 'ready' | 'failed' },
): Promise<ItemRow | undefined> {
  return tx
    .updateTable('items')
    .set({ ...changes, model_updated_at: nextModelStamp(), updated_at: writeTimestamp() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where('model_status', '=', 'processing')
    .where('model_updated_at', '=', attempt)
    .returningAll()
    .executeTakeFirst();
}
