import { meshOf, triangleCross, type Mesh } from './mesh.js';

/** A point of an outline in the horizontal (x, z) plane. */
export type Vec2 = [number, number];

/** One copy of the outline at height `y`, scaled about the origin, then pushed out along its normals. */
export interface Ring {
  y: number;
  scale?: number;
  offset?: number;
}

const signedArea = (outline: Vec2[]) =>
  outline.reduce((sum, [x, z], i) => {
    const [nx, nz] = outline[(i + 1) % outline.length]!;
    return sum + x * nz - nx * z;
  }, 0);

/** Outward unit normals of a closed outline; a corner stored twice gets one normal per side. */
function outlineNormals(outline: Vec2[]): Vec2[] {
  const edgeNormal = (from: Vec2, to: Vec2): Vec2 | null => {
    const [dx, dz] = [to[0] - from[0], to[1] - from[1]];
    const length = Math.hypot(dx, dz);
    return length > 1e-12 ? [dz / length, -dx / length] : null;
  };
  const count = outline.length;
  return outline.map((point, i) => {
    const before = edgeNormal(outline[(i - 1 + count) % count]!, point);
    const after = edgeNormal(point, outline[(i + 1) % count]!);
    const [x, z] = [(before?.[0] ?? 0) + (after?.[0] ?? 0), (before?.[1] ?? 0) + (after?.[1] ?? 0)];
    const length = Math.hypot(x, z) || 1;
    return [x / length, z / length];
  });
}

/**
 * Sweeps a closed outline through rings from bottom to top, walking the surface so that the outside is
 * on the right (outward along the bottom, up the side, inward across the top). A ring of scale 0 is a
 * single vertex, which closes a cap; two equal rings in a row make a crease. `closed` joins the last
 * ring back to the first (a torus).
 */
export function sweep(outline: Vec2[], rings: Ring[], options: { closed?: boolean } = {}): Mesh {
  const loop = signedArea(outline) < 0 ? [...outline].reverse() : outline;
  const normals = outlineNormals(loop);
  const positions: number[] = [];
  const ringVertices = rings.map(({ y, scale = 1, offset = 0 }) => {
    const points = loop.map(([x, z], i): Vec2 => [x * scale + normals[i]![0] * offset, z * scale + normals[i]![1] * offset]);
    const collapsed = points.every(([x, z]) => Math.hypot(x - points[0]![0], z - points[0]![1]) < 1e-9);
    const start = positions.length / 3;
    for (const [x, z] of collapsed ? points.slice(0, 1) : points) positions.push(x, y, z);
    return loop.map((_, i) => (collapsed ? start : start + i));
  });
  const indices: number[] = [];
  const strips = options.closed ? rings.length : rings.length - 1;
  for (let k = 0; k < strips; k++) {
    const [lower, upper] = [ringVertices[k]!, ringVertices[(k + 1) % rings.length]!];
    for (let i = 0; i < loop.length; i++) {
      const next = (i + 1) % loop.length;
      for (const [a, b, c] of [
        [lower[i]!, upper[i]!, lower[next]!],
        [lower[next]!, upper[i]!, upper[next]!],
      ] as const) {
        // Triangles of no area (at a ring closed to a point, between the equal rings of a crease) are left out.
        if (Math.hypot(...triangleCross(positions, a, b, c)) > 1e-14) indices.push(a, b, c);
      }
    }
  }
  return meshOf(positions, indices);
}

export const circle = (segments: number, radius = 1): Vec2[] =>
  Array.from({ length: segments }, (_, i): Vec2 => {
    const angle = (i / segments) * Math.PI * 2;
    return [Math.cos(angle) * radius, Math.sin(angle) * radius];
  });

/** A surface of revolution about Y from a profile of (radius, y) points, walked as `sweep` says. */
export const lathe = (profile: Vec2[], segments = 48, options: { closed?: boolean } = {}): Mesh =>
  sweep(
    circle(segments),
    profile.map(([radius, y]) => ({ y, scale: radius })),
    options,
  );
