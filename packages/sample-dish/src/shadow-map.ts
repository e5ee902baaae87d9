import { fillTriangle } from './fill-triangle.js';
import { boundsOf, vertexAt, type Vec3 } from './mesh.js';
import type { Part } from './part.js';
import { cross, dot, normalize } from './vector.js';

const SIZE = 512;
// 2 mm: curved surfaces do not shadow themselves, and a basil leaf still shadows the pizza under it.
const BIAS = 0.002;
// Taps four cells (about 3 mm) apart: a soft key light's blurred shadow edge.
const TAP_SPACING = 4;

/**
 * How much of the key light reaches a point, from 0 in full shadow to 1 in the open: a depth map of
 * the opaque parts seen from the light (orthographic), sampled 5 x 5 around the point for soft edges.
 */
export function shadowMap(parts: Part[], key: Vec3): (point: Vec3) => number {
  const lightX = normalize(cross(key, [0, 0, 1]));
  const lightY = cross(key, lightX);
  const opaque = parts.filter(({ material }) => material.opacity === 1);
  const { min, max } = boundsOf(opaque.flatMap(({ mesh }) => mesh.positions));
  const corners = [0, 1, 2, 3, 4, 5, 6, 7].map((i): Vec3 => [(i & 1 ? max : min)[0], (i & 2 ? max : min)[1], (i & 4 ? max : min)[2]]);
  const xs = corners.map((p) => dot(p, lightX));
  const ys = corners.map((p) => dot(p, lightY));
  const margin = 0.03;
  const [x0, y0] = [Math.min(...xs) - margin, Math.min(...ys) - margin];
  const cell = Math.max(Math.max(...xs) - x0 + margin, Math.max(...ys) - y0 + margin) / SIZE;
  const toMap = (p: Vec3): Vec3 => [(dot(p, lightX) - x0) / cell, (dot(p, lightY) - y0) / cell, -dot(p, key)];
  const depth = new Float32Array(SIZE * SIZE).fill(Infinity);
  for (const { mesh } of opaque) {
    const mapped = Array.from({ length: mesh.positions.length / 3 }, (_, i) => toMap(vertexAt(mesh.positions, i)));
    for (let t = 0; t < mesh.indices.length; t += 3) {
      const [a, b, c] = [mapped[mesh.indices[t]!]!, mapped[mesh.indices[t + 1]!]!, mapped[mesh.indices[t + 2]!]!];
      // Both windings, so every triangle lands in the map whichever way it faces the light.
      for (const [p, q] of [
        [b, c],
        [c, b],
      ] as const) {
        fillTriangle([a[0], a[1]], [p[0], p[1]], [q[0], q[1]], SIZE, SIZE, (x, y, wa, wb, wc) => {
          const d = a[2] * wa + p[2] * wb + q[2] * wc;
          const index = y * SIZE + x;
          if (d < depth[index]!) depth[index] = d;
        });
      }
    }
  }
  return (point: Vec3): number => {
    const [mx, my, d] = toMap(point);
    let lit = 0;
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        const [x, y] = [Math.floor(mx) + dx * TAP_SPACING, Math.floor(my) + dy * TAP_SPACING];
        const inside = x >= 0 && y >= 0 && x < SIZE && y < SIZE;
        lit += !inside || d <= depth[y * SIZE + x]! + BIAS ? 1 : 0;
      }
    }
    return lit / 25;
  };
}
