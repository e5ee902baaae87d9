import { material } from './material.js';
import { mergeMeshes, type Mesh } from './mesh.js';
import { cylinder } from './shapes.js';
import { lathe, type Vec2 } from './sweep.js';
import { translate } from './transform.js';

export const PORCELAIN = material('porcelain', '#f3f0ea', 0.3);

/** Where food rests in a plate of `height`: the top of its flat well. */
export const plateFloor = (height = 0.02): number => height * 0.25;

/**
 * A plate at true size (by default a 27 cm dinner plate, 2 cm tall): a foot ring, a flat well and a
 * raised rim, so it reads as a plate from a diner's angle.
 */
export function plateMesh(options: { radius?: number; height?: number; segments?: number } = {}): Mesh {
  const { radius = 0.135, height = 0.02, segments = 48 } = options;
  const profile: Vec2[] = [
    [0, 0.06],
    [0.52, 0.03],
    [0.55, 0],
    [0.6, 0],
    [0.64, 0.06],
    [0.75, 0.28],
    [0.9, 0.6],
    [0.99, 0.8],
    [1, 0.88],
    [0.99, 0.97],
    [0.97, 1],
    [0.94, 0.96],
    [0.78, 0.5],
    [0.7, 0.32],
    [0.64, 0.26],
    [0.55, plateFloor(1)],
    [0, plateFloor(1)],
  ];
  return lathe(
    profile.map(([r, y]) => [r * radius, y * height]),
    segments,
  );
}

/**
 * A bowl standing on a flat foot: the wall curves from the foot out and up to a rounded rim, and the
 * inside follows it `wall` thick. A foot almost as wide as the rim makes a ramekin.
 */
export function bowlMesh(options: { radius: number; height: number; foot: number; wall: number; segments?: number }): Mesh {
  const { radius, height, foot, wall, segments = 48 } = options;
  const steps = 10;
  const quarter = Array.from({ length: steps + 1 }, (_, i) => (i / steps) * (Math.PI / 2));
  const outer = quarter.map((a): Vec2 => [foot + (radius - foot) * Math.sin(a), height * (1 - Math.cos(a))]);
  const inner = quarter.map((a): Vec2 => [foot - wall + (radius - foot) * Math.sin(a), wall + (height - wall) * (1 - Math.cos(a))]);
  const lip = Array.from({ length: 5 }, (_, i): Vec2 => {
    const angle = (i / 4) * Math.PI;
    return [radius - wall / 2 + (Math.cos(angle) * wall) / 2, height + (Math.sin(angle) * wall) / 2];
  });
  return lathe([[0, 0], ...outer, ...lip.slice(1, -1), ...inner.reverse(), [0, wall]], segments);
}

/** A stemmed glass coupe: foot, stem and bowl in one mesh; returns the mesh and the bowl's inner floor. */
export function coupeMesh(options: { radius: number; depth: number; stem: number }): { mesh: Mesh; floor: number } {
  const { radius, depth, stem } = options;
  const wall = 0.003;
  const foot = lathe(
    [
      [0, 0],
      [radius * 0.6, 0],
      [radius * 0.6, 0.003],
      [0.008, 0.006],
      [0, 0.006],
    ],
    40,
  );
  const bowl = translate(bowlMesh({ radius, height: depth, foot: 0.012, wall, segments: 40 }), 0, stem, 0);
  return { mesh: mergeMeshes([foot, translate(cylinder(0.005, stem, 16), 0, 0.004, 0), bowl]), floor: stem + wall };
}
