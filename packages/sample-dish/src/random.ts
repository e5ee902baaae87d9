/** A seeded generator (mulberry32): the dishes scatter leaves and fries the same way on every run. */
export function seededRandom(seed: number): (min?: number, max?: number) => number {
  let state = seed >>> 0;
  return (min = 0, max = 1) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return min + (((t ^ (t >>> 14)) >>> 0) / 4294967296) * (max - min);
  };
}

const lattice = (x: number, y: number, z: number, seed: number) => {
  let h = Math.imul(x, 374761393) ^ Math.imul(y, 668265263) ^ Math.imul(z, 1274126177) ^ Math.imul(seed, 2246822519);
  h = Math.imul(h ^ (h >>> 13), 3266489917);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
};

const smooth = (t: number) => t * t * (3 - 2 * t);
const mix = (a: number, b: number, t: number) => a + (b - a) * t;

/** Smooth value noise in [0, 1]: lumps of batter, a walnut's wrinkles. */
export function valueNoise(x: number, y: number, z: number, seed = 0): number {
  const [ix, iy, iz] = [Math.floor(x), Math.floor(y), Math.floor(z)];
  const [fx, fy, fz] = [smooth(x - ix), smooth(y - iy), smooth(z - iz)];
  const corner = (dx: number, dy: number, dz: number) => lattice(ix + dx, iy + dy, iz + dz, seed);
  const plane = (dz: number) => mix(mix(corner(0, 0, dz), corner(1, 0, dz), fx), mix(corner(0, 1, dz), corner(1, 1, dz), fx), fy);
  return mix(plane(0), plane(1), fz);
}
