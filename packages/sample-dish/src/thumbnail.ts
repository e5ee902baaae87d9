import { PNG } from 'pngjs';
import { frameDish } from './camera.js';
import type { Part } from './part.js';
import { renderParts } from './raster.js';

const SUPERSAMPLING = 2;
// Where a diner's eyes are: 40° above the table.
const ELEVATION = (40 * Math.PI) / 180;
const toSrgb = (linear: number) => {
  const c = Math.min(1, Math.max(0, linear));
  return Math.round(255 * (c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055));
};

/** A square PNG of the parts from a diner's angle, rendered at twice the size and averaged down. */
export function partsToPng(parts: Part[], size: number): Buffer {
  const camera = frameDish(parts, { elevation: ELEVATION, margin: 0.92 });
  const large = size * SUPERSAMPLING;
  const linear = renderParts(parts, camera, large);
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      for (let k = 0; k < 3; k++) {
        let sum = 0;
        for (let sy = 0; sy < SUPERSAMPLING; sy++) {
          for (let sx = 0; sx < SUPERSAMPLING; sx++) sum += linear[((y * SUPERSAMPLING + sy) * large + x * SUPERSAMPLING + sx) * 3 + k]!;
        }
        png.data[(y * size + x) * 4 + k] = toSrgb(sum / SUPERSAMPLING ** 2);
      }
      png.data[(y * size + x) * 4 + 3] = 255;
    }
  }
  return PNG.sync.write(png, { colorType: 2, deflateLevel: 9 });
}
