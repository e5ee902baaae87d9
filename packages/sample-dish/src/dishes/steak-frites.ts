import { material } from '../material.js';
import type { Mesh } from '../mesh.js';
import { part, type Part } from '../part.js';
import { seededRandom, valueNoise } from '../random.js';
import { box, ellipse, slab, sphere } from '../shapes.js';
import type { Vec2 } from '../sweep.js';
import { PORCELAIN, plateFloor, plateMesh } from '../tableware.js';
import { place, rotateX, rotateZ, scale, translate } from '../transform.js';

const STEAK = { rx: 0.072, rz: 0.048, height: 0.022 };

/** Grill marks across the steak's top at 45°, each as long as the top is wide along it. */
function grillMarks(): Mesh[] {
  const [a, b] = [STEAK.rx - 0.014, STEAK.rz - 0.012];
  const direction: Vec2 = [Math.SQRT1_2, Math.SQRT1_2];
  return [-0.032, -0.012, 0.008, 0.028].map((offset) => {
    // Where the line through offset * normal along `direction` meets the inset ellipse.
    const [cx, cz] = [-direction[1] * offset, direction[0] * offset];
    const qa = (direction[0] / a) ** 2 + (direction[1] / b) ** 2;
    const qb = 2 * ((cx * direction[0]) / a ** 2 + (cz * direction[1]) / b ** 2);
    const qc = (cx / a) ** 2 + (cz / b) ** 2 - 1;
    const root = Math.sqrt(qb * qb - 4 * qa * qc);
    const [t0, t1] = [(-qb - root) / (2 * qa), (-qb + root) / (2 * qa)];
    const middle = (t0 + t1) / 2;
    return place(
      box(t1 - t0, 0.0012, 0.005),
      [cx + direction[0] * middle, STEAK.height - 0.0006, cz + direction[1] * middle],
      -Math.PI / 4,
    );
  });
}

/** Steak frites: a grilled sirloin with a pat of herb butter, and a pile of hand-cut fries. */
export function steakFrites(): Part[] {
  const random = seededRandom(5);
  const floor = plateFloor();
  const steakAt: [number, number, number] = [-0.028, floor, 0.03];
  const steakYaw = 0.3;
  const outline = ellipse(STEAK.rx, STEAK.rz, 40, 2.4).map(([x, z], i): Vec2 => {
    const wobble = 0.92 + 0.16 * valueNoise(i * 0.35, 0, 0, 2);
    return [x * wobble, z * wobble];
  });
  const onSteak = (mesh: Mesh) => place(mesh, steakAt, steakYaw);
  const fries = Array.from({ length: 30 }, (_, i) => {
    const layer = Math.floor(i / 10);
    const angle = random(0, Math.PI * 2);
    const distance = random(0, 0.045 - layer * 0.01);
    const length = random(0.06, 0.085);
    const fry = rotateX(rotateZ(box(0.009, length, 0.009, 0.0015), Math.PI / 2), random(-0.3, 0.3));
    return place(
      translate(fry, 0, 0.0045, 0),
      [0.045 + Math.cos(angle) * distance, floor + layer * 0.008 + random(0, 0.003), -0.045 + Math.sin(angle) * distance * 0.8],
      random(0, Math.PI),
    );
  });
  const butterTop = STEAK.height + 0.007;
  const herbs = Array.from({ length: 9 }, () =>
    onSteak(
      place(scale(sphere(6, 4), 0.0018, 0.0006, 0.0012), [random(-0.008, 0.008) - 0.01, butterTop, random(-0.008, 0.008)], random(0, 6)),
    ),
  );
  return [
    part(PORCELAIN, [plateMesh()]),
    part(material('steak', '#6e3b1f', 0.6), [onSteak(slab(outline, STEAK.height, 0.007))]),
    part(material('grill-marks', '#2a170c', 0.8), grillMarks().map(onSteak)),
    part(material('fries', '#e9b949', 0.65), fries),
    part(material('herb-butter', '#f3dc8a', 0.35), [
      onSteak(translate(slab(ellipse(0.014, 0.014, 24), 0.0075, 0.0025), -0.01, STEAK.height - 0.0005, 0)),
    ]),
    part(material('herbs', '#3d7a2b', 0.6), herbs),
  ];
}
