import { cross, sub, type Vec3 } from './vector.js';

export type { Vec3 };

/**
 * A triangle mesh in metres, Y up. Normals are always derived from the triangles, so any transform or
 * deformation keeps them right; a crease is a position stored twice, once for each side.
 */
export interface Mesh {
  positions: number[];
  normals: number[];
  indices: number[];
}

export const vertexAt = (values: number[], index: number): Vec3 => [values[index * 3]!, values[index * 3 + 1]!, values[index * 3 + 2]!];

/**
 * The cross product of a triangle's edges from corner `a` (vertex indices into `positions`): along its
 * normal as the winding says, and as long as twice its area.
 */
export const triangleCross = (positions: number[], a: number, b: number, c: number): Vec3 => {
  const origin = vertexAt(positions, a);
  return cross(sub(vertexAt(positions, b), origin), sub(vertexAt(positions, c), origin));
};

/** Area-weighted smooth vertex normals of the triangles. */
function computeNormals(positions: number[], indices: number[]): number[] {
  const normals = new Array<number>(positions.length).fill(0);
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]!, indices[t + 1]!, indices[t + 2]!];
    const n = triangleCross(positions, a, b, c);
    for (const vertex of [a, b, c]) for (let k = 0; k < 3; k++) normals[vertex * 3 + k]! += n[k]!;
  }
  for (let i = 0; i < normals.length; i += 3) {
    const length = Math.hypot(normals[i]!, normals[i + 1]!, normals[i + 2]!);
    // A vertex no triangle uses still needs a unit normal for the glTF validator.
    const [x, y, z] = length > 0 ? [normals[i]! / length, normals[i + 1]! / length, normals[i + 2]! / length] : [0, 1, 0];
    normals[i] = x;
    normals[i + 1] = y;
    normals[i + 2] = z;
  }
  return normals;
}

export const meshOf = (positions: number[], indices: number[]): Mesh => ({
  positions,
  normals: computeNormals(positions, indices),
  indices,
});

export function mergeMeshes(meshes: Mesh[]): Mesh {
  const merged: Mesh = { positions: [], normals: [], indices: [] };
  for (const mesh of meshes) {
    const base = merged.positions.length / 3;
    // Element by element: spreading a large mesh into push() overflows the call stack.
    for (const value of mesh.positions) merged.positions.push(value);
    for (const value of mesh.normals) merged.normals.push(value);
    for (const index of mesh.indices) merged.indices.push(base + index);
  }
  return merged;
}

export function boundsOf(positions: number[]): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3]!, positions[i]!);
    max[i % 3] = Math.max(max[i % 3]!, positions[i]!);
  }
  return { min, max };
}
