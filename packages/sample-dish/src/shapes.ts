import type { Mesh } from './mesh.js';
import { circle, lathe, sweep, type Ring, type Vec2 } from './sweep.js';
import { deform, translate } from './transform.js';

/** Points of a circular arc from `from` to `to` radians, for rounded profiles. */
export const arc = (cx: number, cy: number, radius: number, from: number, to: number, steps: number): Vec2[] =>
  Array.from({ length: steps + 1 }, (_, i): Vec2 => {
    const angle = from + ((to - from) * i) / steps;
    return [cx + Math.cos(angle) * radius, cy + Math.sin(angle) * radius];
  });

/** A closed cylinder standing on y = 0. */
export const cylinder = (radius: number, height: number, segments = 32): Mesh =>
  lathe(
    [
      [0, 0],
      [radius, 0],
      [radius, 0],
      [radius, height],
      [radius, height],
      [0, height],
    ],
    segments,
  );

/** A unit sphere centred on the origin; scale it into an ellipsoid. */
export const sphere = (segments = 24, rings = 16): Mesh => lathe(arc(0, 0, 1, -Math.PI / 2, Math.PI / 2, rings), segments);

/** A dome: the upper half of a unit sphere with a flat base on y = 0 (a tomato half, a scoop's top). */
export const dome = (segments = 24, rings = 8): Mesh => lathe([[0, 0], [1, 0], ...arc(0, 0, 1, 0, Math.PI / 2, rings)], segments);

/** A ring of tube radius `tube` around Y at radius `radius`, centred on y = 0. */
export const torus = (radius: number, tube: number, segments = 24, sides = 10): Mesh =>
  lathe(arc(radius, 0, tube, -Math.PI / 2, (3 * Math.PI) / 2, sides).slice(0, sides), segments, { closed: true });

/** Rings of a slab of `height` whose top and bottom edges are rounded with radius `bevel`, or sharp. */
function slabRings(height: number, bevel: number, steps = 3): Ring[] {
  if (bevel <= 0) return [{ y: 0, scale: 0 }, { y: 0 }, { y: 0 }, { y: height }, { y: height }, { y: height, scale: 0 }];
  const quarter = Array.from({ length: steps + 1 }, (_, i) => (i / steps) * (Math.PI / 2));
  return [
    { y: 0, scale: 0 },
    ...quarter.map((a) => ({ y: bevel * (1 - Math.cos(a)), offset: -bevel * (1 - Math.sin(a)) })),
    ...quarter.map((a) => ({ y: height - bevel + bevel * Math.sin(a), offset: -bevel * (1 - Math.cos(a)) })),
    { y: height, scale: 0 },
  ];
}

/**
 * A slab standing on y = 0 with a given outline and rounded edges: a steak, a fillet, a butter pat, a
 * board. With `bevel` 0 its edges are sharp. The outline must be star-shaped around its centroid,
 * where the caps' triangle fans meet.
 */
export function slab(outline: Vec2[], height: number, bevel = 0): Mesh {
  const [cx, cz] = outline.reduce(([x, z], p) => [x + p[0] / outline.length, z + p[1] / outline.length], [0, 0]);
  const centred = outline.map(([x, z]): Vec2 => [x - cx, z - cz]);
  return translate(sweep(centred, slabRings(height, bevel)), cx, 0, cz);
}

/** The part of a convex outline where `normal · point <= limit` (one Sutherland–Hodgman step). */
export function clipOutline(outline: Vec2[], normal: Vec2, limit: number): Vec2[] {
  const side = ([x, z]: Vec2) => normal[0] * x + normal[1] * z - limit;
  return outline.flatMap((point, i) => {
    const next = outline[(i + 1) % outline.length]!;
    const [a, b] = [side(point), side(next)];
    const kept: Vec2[] = a <= 0 ? [point] : [];
    if (a * b < 0) {
      const t = a / (a - b);
      kept.push([point[0] + (next[0] - point[0]) * t, point[1] + (next[1] - point[1]) * t]);
    }
    return kept;
  });
}

/** A rectangle centred on the origin, each corner stored twice so a sharp-edged box keeps flat sides. */
const rectangle = (width: number, depth: number): Vec2[] =>
  (
    [
      [-width / 2, -depth / 2],
      [width / 2, -depth / 2],
      [width / 2, depth / 2],
      [-width / 2, depth / 2],
    ] as Vec2[]
  ).flatMap((corner) => [corner, corner]);

/** A rectangle with corners rounded by `radius` (must be above 0). */
const roundedRectangle = (width: number, depth: number, radius: number, steps = 4): Vec2[] => {
  const [x, z] = [width / 2 - radius, depth / 2 - radius];
  return [
    ...arc(x, z, radius, 0, Math.PI / 2, steps),
    ...arc(-x, z, radius, Math.PI / 2, Math.PI, steps),
    ...arc(-x, -z, radius, Math.PI, (3 * Math.PI) / 2, steps),
    ...arc(x, -z, radius, (3 * Math.PI) / 2, 2 * Math.PI, steps),
  ];
};

/** A box standing on y = 0, centred on the Y axis; `bevel` rounds its edges. */
export const box = (width: number, height: number, depth: number, bevel = 0): Mesh =>
  slab(bevel > 0 ? roundedRectangle(width, depth, bevel) : rectangle(width, depth), height, bevel);

/** An ellipse of half-axes `rx` (along x) and `rz`; `squareness` > 2 pushes it towards a rectangle. */
export const ellipse = (rx: number, rz: number, segments = 32, squareness = 2): Vec2[] =>
  circle(segments).map(([x, z]): Vec2 => {
    const e = 2 / squareness;
    return [rx * Math.sign(x) * Math.abs(x) ** e, rz * Math.sign(z) * Math.abs(z) ** e];
  });

/**
 * A leaf outline along x, from stalk to tip. It is widest 0.5 ** (1 / skew) of the way along, and
 * `fullness` below 1 rounds its sides out (a lettuce leaf rather than a basil leaf).
 */
const leafOutline = (length: number, width: number, options: { skew?: number; fullness?: number; steps?: number } = {}): Vec2[] => {
  const { skew = 0.8, fullness = 0.9, steps = 10 } = options;
  const half = (t: number) => (width / 2) * Math.sin(Math.PI * t ** skew) ** fullness;
  const side = Array.from({ length: steps + 1 }, (_, i) => i / steps);
  return [
    ...side.map((t): Vec2 => [(t - 0.5) * length, half(t)]),
    ...side
      .slice(1, -1)
      .reverse()
      .map((t): Vec2 => [(t - 0.5) * length, -half(t)]),
  ];
};

/**
 * A thin leaf lying along x: its tips lifted by `curl` and its edges by `fold` (metres), so it cups
 * like a real leaf instead of lying flat as paper; `ruffle` waves its edges like lettuce.
 */
export function leaf(
  length: number,
  width: number,
  options: { thickness?: number; curl?: number; fold?: number; ruffle?: number; skew?: number; fullness?: number; steps?: number } = {},
): Mesh {
  const { thickness = 0.0012, curl = 0, fold = 0, ruffle = 0 } = options;
  return deform(slab(leafOutline(length, width, options), thickness), ([x, y, z]) => {
    const edge = Math.abs(z) / (width / 2);
    const wave = ruffle * Math.sin((x / length) * 40) * edge ** 2;
    return [x, y + curl * ((2 * x) / length) ** 2 + fold * edge ** 1.5 + wave, z];
  });
}
