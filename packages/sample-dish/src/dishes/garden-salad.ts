import { material } from '../material.js';
import type { Mesh } from '../mesh.js';
import { part, type Part } from '../part.js';
import { seededRandom, valueNoise } from '../random.js';
import { cylinder, dome, leaf } from '../shapes.js';
import { bowlMesh } from '../tableware.js';
import { deform, displace, place, rotateX, rotateZ, scale } from '../transform.js';

const BOWL = { radius: 0.11, height: 0.075, foot: 0.045, wall: 0.005 };

// The heap of salad peaks above the bowl's rim, falling away as a paraboloid: top - fall * distance².
const HEAP = { top: 0.098, fall: 3.2 };
const heapHeight = (distance: number) => HEAP.top - HEAP.fall * distance * distance;

/** Sets a small thing on the heap's surface, tilted with its slope. */
const onHeap = (mesh: Mesh, distance: number, angle: number) => {
  const tilted = rotateZ(mesh, -Math.atan(2 * HEAP.fall * distance));
  return place(tilted, [Math.cos(angle) * distance, heapHeight(distance), Math.sin(angle) * distance], -angle);
};

/** A walnut half: a low dome split by a groove down the middle and crossed by lobes, finely wrinkled. */
function walnutHalf(seed: number): Mesh {
  const lobed = deform(dome(24, 8), ([x, y, z]) => [
    x,
    y * (1 - 0.4 * Math.exp(-((z / 0.16) ** 2))) * (0.85 + 0.15 * Math.cos(x * Math.PI * 2.5)),
    z,
  ]);
  // The flat underside is left alone: displacing its crease would open a crack.
  return displace(scale(lobed, 0.015, 0.008, 0.012), ([x, y, z]) =>
    y > 0.0005 ? (valueNoise(x * 700, y * 700, z * 700, seed) - 0.5) * 0.0016 : 0,
  );
}

/** Garden salad: little gem leaves heaped in a bowl, radish slices, shaved fennel and walnut halves. */
export function gardenSalad(): Part[] {
  const random = seededRandom(23);
  const leaves = { light: [] as Mesh[], dark: [] as Mesh[] };
  for (let i = 0; i < 34; i++) {
    const ring = i < 14 ? 0 : i < 26 ? 1 : 2;
    const angle = i * 2.4 + random(-0.3, 0.3);
    const size = random(0.065, 0.085);
    const tilt = random(0.25, 0.6);
    // Each leaf leans outwards, cupped, its tip no further out than the bowl's rim.
    const distance = Math.min([0.07, 0.045, 0.018][ring]! + random(-0.008, 0.008), BOWL.radius - 0.008 - (size / 2) * Math.cos(tilt));
    const cupped = rotateZ(
      leaf(size, size * 0.62, { curl: 0.008, fold: 0.012, ruffle: 0.002, thickness: 0.0015, skew: 1.6, fullness: 0.5, steps: 16 }),
      tilt,
    );
    const mesh = place(
      cupped,
      [Math.cos(angle) * distance, heapHeight(distance) - 0.02, Math.sin(angle) * distance],
      -angle + random(-0.4, 0.4),
    );
    (i % 3 === 0 ? leaves.dark : leaves.light).push(mesh);
  }
  const radishes = Array.from({ length: 8 }, (_, i) => ({
    distance: random(0, 0.06),
    angle: i * 0.8 + random(0, 0.4),
    radius: random(0.01, 0.013),
  }));
  const walnuts = Array.from({ length: 6 }, (_, i) => onHeap(walnutHalf(i), random(0.01, 0.06), i * 1.05 + 0.3));
  const fennel = Array.from({ length: 6 }, (_, i) =>
    onHeap(rotateX(leaf(0.05, 0.016, { curl: 0.006, thickness: 0.0012 }), 0.1), random(0.02, 0.06), i * 1.1 + 0.6),
  );
  return [
    part(material('stoneware', '#e4e7e2', 0.45), [bowlMesh(BOWL)]),
    part(material('little-gem-heart', '#9ccc65', 0.5), leaves.light),
    part(material('little-gem', '#5d9636', 0.5), leaves.dark),
    part(
      material('radish-skin', '#c2185b', 0.4),
      radishes.map(({ distance, angle, radius }) => onHeap(cylinder(radius, 0.002, 24), distance, angle)),
    ),
    part(
      material('radish-flesh', '#fbf3f2', 0.5),
      radishes.map(({ distance, angle, radius }) => onHeap(cylinder(radius * 0.85, 0.0026, 24), distance, angle)),
    ),
    part(material('walnut', '#a36d38', 0.8), walnuts),
    part(material('fennel', '#e9f0cf', 0.5), fennel),
  ];
}
