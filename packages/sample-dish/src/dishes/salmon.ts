import { material } from '../material.js';
import type { Mesh, Vec3 } from '../mesh.js';
import { part, type Part } from '../part.js';
import { seededRandom } from '../random.js';
import { clipOutline, ellipse, leaf, slab, sphere, torus } from '../shapes.js';
import type { Vec2 } from '../sweep.js';
import { PORCELAIN, plateFloor, plateMesh } from '../tableware.js';
import { deform, place, rotateX, rotateZ, scale } from '../transform.js';

const FILLET = { length: 0.13, width: 0.076, height: 0.03, at: [0, plateFloor() + 0.016, 0.005] as Vec3, yaw: -0.25 };
const FLAKE_CUTS = [-0.045, -0.022, 0, 0.022, 0.045];
const FLAKE_GAP = 0.0012;
const FLAKE_BEVEL = 0.0045;

/** How much lower the fillet is towards its tail, at x along it. */
const taper = (x: number) => 1 - (0.3 * (x + FILLET.length / 2)) / FILLET.length;

/** The fillet's outline, narrowing to the tail at +x. */
const filletOutline = (): Vec2[] =>
  ellipse(FILLET.length / 2, FILLET.width / 2, 40, 3).map(([x, z]): Vec2 => [x, z * (0.75 + 0.25 * taper(x))]);

/**
 * The fillet as cooked salmon looks: flakes separated by slanted lines of white fat, each flake with a
 * glossy miso glaze on top. The glaze is the flake again, narrower and a little higher, so it covers
 * the middle of the top while the pink sides and rounded edges stay in view.
 */
function flakes(): { flesh: Mesh[]; glaze: Mesh[]; fat: Mesh } {
  const outline = filletOutline();
  const across: Vec2 = [Math.cos(0.35), Math.sin(0.35)];
  const flesh: Mesh[] = [];
  const glaze: Mesh[] = [];
  for (let k = 0; k <= FLAKE_CUTS.length; k++) {
    let flake = outline;
    if (k < FLAKE_CUTS.length) flake = clipOutline(flake, across, FLAKE_CUTS[k]! - FLAKE_GAP / 2);
    if (k > 0) flake = clipOutline(flake, [-across[0], -across[1]], -FLAKE_CUTS[k - 1]! - FLAKE_GAP / 2);
    const middle = flake.reduce((sum, [x]) => sum + x / flake.length, 0);
    const height = FILLET.height * taper(middle);
    flesh.push(slab(flake, height, FLAKE_BEVEL));
    const [cx, cz] = flake.reduce(([x, z], p) => [x + p[0] / flake.length, z + p[1] / flake.length], [0, 0]);
    const narrower = flake.map(([x, z]): Vec2 => [cx + (x - cx) * 0.88, cz + (z - cz) * 0.88]);
    glaze.push(place(slab(narrower, height, FLAKE_BEVEL), [0, 0.0009, 0]));
  }
  const fat = deform(
    slab(
      outline.map(([x, z]): Vec2 => [x * 0.97, z * 0.97]),
      FILLET.height * 0.75,
      0.006,
    ),
    ([x, y, z]) => [x, y * taper(x), z],
  );
  return { flesh, glaze, fat };
}

/** Miso-glazed salmon: a thick, flaky fillet with a dark, glossy glaze on baby spinach and pea shoots. */
export function salmon(): Part[] {
  const random = seededRandom(11);
  const floor = plateFloor();
  const spinach = Array.from({ length: 16 }, (_, i) => {
    const angle = (i / 16) * Math.PI * 2 + random(-0.2, 0.2);
    const distance = random(0.03, 0.085);
    const size = random(0.06, 0.08);
    const tilted = rotateZ(rotateX(leaf(size, size * 0.62, { curl: 0.006, fold: 0.004 }), random(-0.25, 0.25)), random(-0.2, 0.2));
    return place(
      tilted,
      [Math.cos(angle) * distance, floor + 0.004 + random(0, 0.012), Math.sin(angle) * distance],
      -angle + random(-0.5, 0.5),
    );
  });
  const shoots = Array.from({ length: 14 }, (_, i) => {
    const angle = (i / 14) * Math.PI * 2 + random(-0.2, 0.2);
    const distance = random(0.055, 0.09);
    return place(
      rotateX(leaf(0.018, 0.014, { curl: 0.002, fold: 0.001 }), random(-0.4, 0.4)),
      [Math.cos(angle) * distance, floor + 0.02 + random(0, 0.006), Math.sin(angle) * distance],
      random(0, 6),
    );
  });
  const onFillet = (mesh: Mesh) => place(mesh, FILLET.at, FILLET.yaw);
  // Garnish is scattered in the fillet's own frame, on the glaze of the flake it lands on.
  const onTop = (mesh: Mesh, spread: number) => {
    const x = random(-spread, spread);
    return onFillet(place(mesh, [x, FILLET.height * taper(x) + 0.0018, random(-spread / 3, spread / 3)], random(0, 6)));
  };
  const sesame = Array.from({ length: 18 }, () => onTop(scale(sphere(8, 5), 0.0022, 0.0008, 0.0012), 0.045));
  const scallions = Array.from({ length: 7 }, () => onTop(torus(0.0035, 0.0011, 12, 6), 0.04));
  const fillet = flakes();
  return [
    part(PORCELAIN, [plateMesh()]),
    part(material('spinach', '#2f5d24', 0.45), spinach),
    part(material('pea-shoots', '#7cb342', 0.5), shoots),
    part(material('salmon', '#f7936b', 0.55), fillet.flesh.map(onFillet)),
    part(material('salmon-fat', '#fbefe6', 0.6), [onFillet(fillet.fat)]),
    part(material('miso-glaze', '#b8602a', 0.18), fillet.glaze.map(onFillet)),
    part(material('sesame', '#f1e7cf', 0.5), sesame),
    part(material('scallion', '#5f9e3c', 0.5), scallions),
  ];
}
