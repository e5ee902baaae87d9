import { AppError } from '@partner/contracts';
import { type Db, findRestaurantById, listSections, menuEtagOf, menuItemsPage } from '@partner/db';
import { iso, presentRestaurant } from '@partner/views';
import { itemJson } from '../items/item-json.js';

/** Items read (and serialised) per query while a menu is built. */
const PAGE = 1000;
/** Serialised text is handed on in chunks of about this many characters. */
const CHUNK_CHARS = 64 * 1024;

export interface MenuBuildOutput {
  /** Called once, just before the first chunk: the ETag of the snapshot the menu is built from. */
  begin(etag: string): void;
  push(chunk: Buffer): void;
}

/**
 * The menu's JSON answer (`{ data: TMenu }`, byte for byte what `res.json` would send), built from one
 * repeatable-read snapshot, so its bytes are exactly those of the version they are labelled with. Items
 * are read a page at a time on a keyset and leave as chunks: no list of every row or every item object,
 * and no single string, is ever held.
 */
export async function buildMenu(db: Db, restaurantId: string, out: MenuBuildOutput): Promise<void> {
  await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      const restaurant = await findRestaurantById(tx, restaurantId);
      if (!restaurant) throw new AppError('not_found', 'No such restaurant.');
      // Begun with the first chunk: a build that fails before it answers an ordinary error, not a cut one.
      let begun = false;
      let text = '';
      const write = (more: string) => {
        text += more;
        if (text.length >= CHUNK_CHARS) flush();
      };
      const flush = () => {
        if (!begun) out.begin(menuEtagOf(restaurant));
        begun = true;
        out.push(Buffer.from(text));
        text = '';
      };
      const writeItems = async (sectionId: string | null) => {
        let after: { name: string; id: string } | null = null;
        for (let first = true; ; first = false) {
          const rows = await menuItemsPage(tx, { restaurantId, sectionId, after, limit: PAGE })
            .select(['name', 'id', itemJson(restaurantId).as('json')])
            .execute();
          if (rows.length > 0) write(`${first ? '' : ','}${rows.map((row) => row.json).join(',')}`);
          const last = rows.at(-1);
          if (rows.length < PAGE || !last) return;
          after = { name: last.name, id: last.id };
        }
      };

      write(`{"data":{"restaurant":${JSON.stringify(presentRestaurant(restaurant))},"sections":[`);
      const sections = await listSections(tx, restaurantId);
      for (const [index, section] of sections.entries()) {
        const head = JSON.stringify({ id: section.id, name: section.name, position: section.position });
        write(`${index === 0 ? '' : ','}${head.slice(0, -1)},"items":[`);
        await writeItems(section.id);
        write(']}');
      }
      write('],"unsectionedItems":[');
      await writeItems(null);
      const updatedAt =
        restaurant.menu_updated_at && restaurant.menu_updated_at > restaurant.updated_at
          ? restaurant.menu_updated_at
          : restaurant.updated_at;
      write(`],"updatedAt":${JSON.stringify(iso(updatedAt))}}}`);
      flush();
    });
}
