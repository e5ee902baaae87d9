import { boundsOf, type Vec3 } from './mesh.js';
import type { Part } from './part.js';
import { add, cross, dot, mul, normalize, sub } from './vector.js';

/** A perspective camera; `focal`, `shiftX` and `shiftY` map view-space x/d, y/d to [-1, 1]. */
export interface Camera {
  eye: Vec3;
  right: Vec3;
  up: Vec3;
  forward: Vec3;
  focal: number;
  shiftX: number;
  shiftY: number;
}

/** View-space coordinates of a point: sideways, upwards and depth along the view direction. */
export const toView = (camera: Camera, point: Vec3): Vec3 => {
  const v = sub(point, camera.eye);
  return [dot(v, camera.right), dot(v, camera.up), dot(v, camera.forward)];
};

/**
 * A camera where a diner sits, `elevation` radians above the table and looking at the dish, zoomed
 * and shifted so that the dish's projection fills the square frame up to `margin`.
 */
export function frameDish(parts: Part[], options: { elevation: number; margin: number }): Camera {
  const positions = parts.flatMap(({ mesh }) => mesh.positions);
  const { min, max } = boundsOf(positions);
  const target = mul(add(min, max), 0.5);
  const radius = Math.hypot(...sub(max, min)) / 2;
  const toEye: Vec3 = [0, Math.sin(options.elevation), Math.cos(options.elevation)];
  // About four radii away: a natural, slightly tele perspective, like a phone held over the table.
  const eye = add(target, mul(toEye, radius * 4));
  const forward = mul(toEye, -1);
  const right = normalize(cross(forward, [0, 1, 0]));
  const camera: Camera = { eye, right, up: cross(right, forward), forward, focal: 1, shiftX: 0, shiftY: 0 };
  const extent = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
  for (let i = 0; i < positions.length; i += 3) {
    const [x, y, d] = toView(camera, [positions[i]!, positions[i + 1]!, positions[i + 2]!]);
    extent.minX = Math.min(extent.minX, x / d);
    extent.maxX = Math.max(extent.maxX, x / d);
    extent.minY = Math.min(extent.minY, y / d);
    extent.maxY = Math.max(extent.maxY, y / d);
  }
  const focal = (2 * options.margin) / Math.max(extent.maxX - extent.minX, extent.maxY - extent.minY);
  return {
    ...camera,
    focal,
    shiftX: (-(extent.minX + extent.maxX) / 2) * focal,
    shiftY: (-(extent.minY + extent.maxY) / 2) * focal,
  };
}
