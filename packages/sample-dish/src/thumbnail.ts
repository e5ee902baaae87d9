import { PNG } from 'pngjs';

/** A square PNG of a plate seen from above, for the sample dish's poster and thumbnail. */
export function createSampleThumbnailPng(size = 256): Buffer {
  const png = new PNG({ width: size, height: size });
  const center = (size - 1) / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const distance = Math.hypot(x - center, y - center) / (size / 2);
      const offset = (y * size + x) * 4;
      const [r, g, b] = distance < 0.55 ? [214, 120, 64] : distance < 0.92 ? [242, 237, 226] : [250, 248, 244];
      png.data[offset] = r;
      png.data[offset + 1] = g;
      png.data[offset + 2] = b;
      png.data[offset + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}
