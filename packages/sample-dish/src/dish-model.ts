import type { DishKind } from './demo-menu.js';
import { buildDish } from './dishes/index.js';
import { partsToGlb } from './glb.js';
import { partsToPng } from './thumbnail.js';
import { partsToUsda } from './usda.js';
import { usdaToUsdz } from './usdz.js';

export const THUMBNAIL_SIZE = 512;

/** The dish shown when none in particular is asked for: the embed's demo, tests that need any model. */
export const DEFAULT_DISH: DishKind = 'margherita';

/** A demo dish's three files, as the console's model upload takes them; the same bytes on every run. */
export async function createDishModel(kind: DishKind): Promise<{ glb: Buffer; usdz: Buffer; thumbnail: Buffer }> {
  const parts = buildDish(kind);
  return { glb: partsToGlb(parts), usdz: await usdaToUsdz(partsToUsda(parts)), thumbnail: partsToPng(parts, THUMBNAIL_SIZE) };
}

export const createSampleDishGlb = (): Buffer => partsToGlb(buildDish(DEFAULT_DISH));
export const createSampleDishUsdz = (): Promise<Buffer> => usdaToUsdz(partsToUsda(buildDish(DEFAULT_DISH)));
export const createSampleThumbnailPng = (size = 256): Buffer => partsToPng(buildDish(DEFAULT_DISH), size);
