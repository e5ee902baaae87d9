import { toView, type Camera } from './camera.js';
import { fillTriangle } from './fill-triangle.js';
import { vertexAt, type Vec3 } from './mesh.js';
import type { Part } from './part.js';
import { shadowMap } from './shadow-map.js';
import { add, dot, mul, normalize, sub } from './vector.js';

const blend = (a: Vec3, b: Vec3, c: Vec3, w: Vec3): Vec3 => add(add(mul(a, w[0]), mul(b, w[1])), mul(c, w[2]));

// A soft key light from the upper left, a little towards the diner, and a sky-and-table ambient.
const KEY: Vec3 = normalize([-0.5, 0.85, 0.35]);
const KEY_STRENGTH = 0.78;
const SKY = 0.42;
const GROUND = 0.2;
const TABLE: Vec3 = [0.82, 0.8, 0.76];

/**
 * Renders the parts as a diner sees them: perspective, z-buffered, Lambert shading with a soft key light
 * and ambient, a glint on smooth materials, shadows on the dish and the table, see-through glass.
 * Opaque parts are shaded once per pixel after the depth test (deferred), glass blended over them.
 * Returns linear RGB, `size` x `size`.
 */
export function renderParts(parts: Part[], camera: Camera, size: number): Float32Array {
  const pixels = size * size;
  const color = new Float32Array(pixels * 3);
  const depth = new Float32Array(pixels).fill(Infinity);
  // What each pixel shows: a part, one of its triangles and the perspective-correct weights of two of
  // its corners; shading waits until the depth test is done.
  const owner = new Int16Array(pixels).fill(-1);
  const triangle = new Int32Array(pixels);
  const weights = new Float32Array(pixels * 2);
  const lit = shadowMap(parts, KEY);
  const toScreen = (p: Vec3): Vec3 => {
    const [x, y, d] = toView(camera, p);
    return [((x / d) * camera.focal + camera.shiftX + 1) * 0.5 * size, (1 - ((y / d) * camera.focal + camera.shiftY)) * 0.5 * size, d];
  };

  const shade = (part: Part, position: Vec3, normal: Vec3): Vec3 => {
    const { color: albedo, roughness } = part.material;
    const toEye = normalize(sub(camera.eye, position));
    const n = dot(normal, toEye) < 0 ? mul(normal, -1) : normal;
    // Looked up 1.5 mm off the surface, so a surface does not shadow itself.
    const shadow = lit(add(position, mul(n, 0.0015)));
    // Wrapped Lambert: a large, soft light reaches a little past the terminator.
    const diffuse = Math.max(0, (dot(n, KEY) + 0.25) / 1.25) * shadow * KEY_STRENGTH;
    const ambient = GROUND + (SKY - GROUND) * (0.5 + 0.5 * n[1]);
    const shininess = 2 / Math.max(roughness, 0.05) ** 4;
    const glint = (1 - roughness) ** 2 * 0.5 * shadow * Math.max(0, dot(n, normalize(add(KEY, toEye)))) ** shininess;
    return add(mul(albedo, ambient + diffuse), [glint, glint, glint]);
  };

  /** The position and normal of a part's triangle at perspective-correct weights. */
  const surfaceAt = (part: Part, t: number, wa: number, wb: number): { position: Vec3; normal: Vec3 } => {
    const { positions, normals, indices } = part.mesh;
    const w: Vec3 = [wa, wb, 1 - wa - wb];
    const [ia, ib, ic] = [indices[t]!, indices[t + 1]!, indices[t + 2]!];
    return {
      position: blend(vertexAt(positions, ia), vertexAt(positions, ib), vertexAt(positions, ic), w),
      normal: normalize(blend(vertexAt(normals, ia), vertexAt(normals, ib), vertexAt(normals, ic), w)),
    };
  };

  /** Calls `visit` for every pixel a part covers nearer than the z-buffer. */
  const rasterise = (part: Part, visit: (index: number, d: number, t: number, wa: number, wb: number) => void) => {
    const { positions, indices } = part.mesh;
    const screen = Array.from({ length: positions.length / 3 }, (_, i) => toScreen(vertexAt(positions, i)));
    for (let t = 0; t < indices.length; t += 3) {
      const [a, b, c] = [screen[indices[t]!]!, screen[indices[t + 1]!]!, screen[indices[t + 2]!]!];
      if (a[2] <= 0 || b[2] <= 0 || c[2] <= 0) continue;
      fillTriangle([a[0], a[1]], [b[0], b[1]], [c[0], c[1]], size, size, (x, y, wa, wb, wc) => {
        // Perspective-correct weights: screen weights over depth, renormalised.
        const [pa, pb] = [wa / a[2], wb / b[2]];
        const sum = pa + pb + wc / c[2];
        const index = y * size + x;
        if (1 / sum < depth[index]!) visit(index, 1 / sum, t, pa / sum, pb / sum);
      });
    }
  };

  parts.forEach((part, i) => {
    if (part.material.opacity < 1) return;
    rasterise(part, (index, d, t, wa, wb) => {
      depth[index] = d;
      owner[index] = i;
      triangle[index] = t;
      weights[index * 2] = wa;
      weights[index * 2 + 1] = wb;
    });
  });

  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const index = y * size + x;
      const part = parts[owner[index]!];
      if (part) {
        const { position, normal } = surfaceAt(part, triangle[index]!, weights[index * 2]!, weights[index * 2 + 1]!);
        color.set(shade(part, position, normal), index * 3);
        continue;
      }
      // The table: the pixel's ray meets the plane y = 0.
      const sx = (((x + 0.5) / size) * 2 - 1 - camera.shiftX) / camera.focal;
      const sy = (1 - ((y + 0.5) / size) * 2 - camera.shiftY) / camera.focal;
      const ray = add(camera.forward, add(mul(camera.right, sx), mul(camera.up, sy)));
      const onTable = ray[1] < 0 ? add(camera.eye, mul(ray, -camera.eye[1] / ray[1])) : null;
      color.set(mul(TABLE, onTable ? 0.62 + 0.38 * lit(onTable) : 1), index * 3);
    }
  }

  for (const part of parts) {
    if (part.material.opacity === 1) continue;
    rasterise(part, (index, _d, t, wa, wb) => {
      const { position, normal } = surfaceAt(part, t, wa, wb);
      // Glass shows more of itself at grazing angles, as real glass reflects more there.
      const facing = Math.abs(dot(normal, normalize(sub(camera.eye, position))));
      const alpha = part.material.opacity + (1 - part.material.opacity) * (1 - facing) ** 3;
      const shaded = shade(part, position, normal);
      for (let k = 0; k < 3; k++) color[index * 3 + k] = color[index * 3 + k]! * (1 - alpha) + shaded[k]! * alpha;
    });
  }
  return color;
}
