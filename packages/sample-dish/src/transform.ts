import { meshOf, type Mesh, type Vec3 } from './mesh.js';

/** Moves every vertex; the normals are recomputed, so bends and squashes shade correctly. */
export function deform(mesh: Mesh, move: (point: Vec3, normal: Vec3) => Vec3): Mesh {
  const positions: number[] = [];
  for (let i = 0; i < mesh.positions.length; i += 3) {
    const point: Vec3 = [mesh.positions[i]!, mesh.positions[i + 1]!, mesh.positions[i + 2]!];
    const normal: Vec3 = [mesh.normals[i]!, mesh.normals[i + 1]!, mesh.normals[i + 2]!];
    positions.push(...move(point, normal));
  }
  return meshOf(positions, mesh.indices);
}

export const translate = (mesh: Mesh, x: number, y: number, z: number): Mesh => deform(mesh, ([px, py, pz]) => [px + x, py + y, pz + z]);

export const scale = (mesh: Mesh, x: number, y = x, z = x): Mesh => deform(mesh, ([px, py, pz]) => [px * x, py * y, pz * z]);

/** Right-handed rotations in radians. */
export function rotateX(mesh: Mesh, angle: number): Mesh {
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  return deform(mesh, ([x, y, z]) => [x, y * c - z * s, y * s + z * c]);
}

export function rotateY(mesh: Mesh, angle: number): Mesh {
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  return deform(mesh, ([x, y, z]) => [x * c + z * s, y, -x * s + z * c]);
}

export function rotateZ(mesh: Mesh, angle: number): Mesh {
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  return deform(mesh, ([x, y, z]) => [x * c - y * s, x * s + y * c, z]);
}

/** Pushes each vertex along its normal; only for meshes without creases, or they would crack open. */
export const displace = (mesh: Mesh, amount: (point: Vec3) => number): Mesh =>
  deform(mesh, (point, normal) => {
    const d = amount(point);
    return [point[0] + normal[0] * d, point[1] + normal[1] * d, point[2] + normal[2] * d];
  });

/** Turns a mesh about Y by `yaw`, then moves it to `at`: how the recipes set things down. */
export const place = (mesh: Mesh, at: Vec3, yaw = 0): Mesh => translate(rotateY(mesh, yaw), ...at);
