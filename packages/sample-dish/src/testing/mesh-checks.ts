import { vertexAt, type Mesh } from '../mesh.js';
import { cross, dot } from '../vector.js';

/** Signed volume by the divergence theorem: positive when the triangles face outwards. */
export function signedVolume({ positions: p, indices }: Mesh): number {
  let volume = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [vertexAt(p, indices[t]!), vertexAt(p, indices[t + 1]!), vertexAt(p, indices[t + 2]!)];
    volume += dot(a, cross(b, c)) / 6;
  }
  return volume;
}

/** Every edge, keyed by its end positions (creases store a position twice), belongs to two triangles. */
export function isWatertight({ positions: p, indices }: Mesh): boolean {
  const key = (i: number) => `${p[i * 3]!.toFixed(7)},${p[i * 3 + 1]!.toFixed(7)},${p[i * 3 + 2]!.toFixed(7)}`;
  const edges = new Map<string, number>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const [a, b] = [key(indices[t + k]!), key(indices[t + ((k + 1) % 3)]!)];
      // A directed edge and its reverse cancel out: a closed, consistently wound surface sums to zero.
      const edge = a < b ? `${a}|${b}` : `${b}|${a}`;
      edges.set(edge, (edges.get(edge) ?? 0) + (a < b ? 1 : -1));
    }
  }
  return [...edges.values()].every((count) => count === 0);
}
