import { storedZip } from './zip.js';

/** A USDZ: an uncompressed zip whose first (default) layer is the USD file, its data 64-byte aligned. */
export function usdaToUsdz(usda: string, name = 'dish.usda'): Buffer {
  return storedZip([{ name, data: Buffer.from(usda) }]);
}
