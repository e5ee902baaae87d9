import type { DishKind } from './demo-menu.js';
import { buildDish } from './dishes/index.js';
import { partsToGlb } from './glb.js';
import type { Part } from './part.js';
import { partsToPng } from './thumbnail.js';
import { partsToUsda } from './usda.js';
import { usdaToUsdz } from './usdz.js';

export const THUMBNAIL_SIZE = 512;

/** The dish shown when none in particular is asked for: the embed's demo, tests that need any model. */
const DEFAULT_DISH: DishKind = 'margherita';

let defaultDish: Part[] | undefined;
/** The default dish, built once on first use: its three files only read it. */
const defaultDishParts = (): Part[] => (defaultDish ??= buildDish(DEFAULT_DISH));

/** A demo dish's three files, as the console's model upload takes them; the same bytes on every run. */
export function createDishModel(kind: DishKind): { glb: Buffer; usdz: Buffer; thumbnail: Buffer } {
  const parts = buildDish(kind);
  return { glb: partsToGlb(parts), usdz: usdaToUsdz(partsToUsda(parts)), thumbnail: partsToPng(parts, THUMBNAIL_SIZE) };
}

export const createSampleDishGlb = (): Buffer => partsToGlb(defaultDishParts());
export const createSampleDishUsdz = (): Buffer => usdaToUsdz(partsToUsda(defaultDishParts()));
export const createSampleThumbnailPng = (size = 256): Buffer => partsToPng(defaultDishParts(), size);
