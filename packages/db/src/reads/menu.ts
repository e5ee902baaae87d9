import type { SectionRow } from '../schema.js';
import type { Executor } from './executor.js';

export async function listSections(db: Executor, restaurantId: string): Promise<SectionRow[]> {
  return db.selectFrom('sections').selectAll().where('restaurant_id', '=', restaurantId).orderBy('position').orderBy('id').execute();
}
