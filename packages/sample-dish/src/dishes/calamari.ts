import { material } from '../material.js';
import type { Mesh } from '../mesh.js';
import { part, type Part } from '../part.js';
import { seededRandom, valueNoise } from '../random.js';
import { arc, torus } from '../shapes.js';
import { lathe, sweep, type Vec2 } from '../sweep.js';
import { PORCELAIN, bowlMesh, plateFloor, plateMesh } from '../tableware.js';
import { displace, place, rotateX, rotateZ, translate } from '../transform.js';

/**
 * A wedge of lemon: a pie-slice cross-section, its point on the lemon's axis, swept along the lemon
 * and shrinking like an ellipsoid to a point at both ends. `spread` is the slice's half angle.
 */
function wedge(length: number, radius: number, spread: number): Mesh {
  const steps = 8;
  const peel = arc(0, 0, radius, Math.PI - spread, Math.PI + spread, steps);
  // The point and both ends of the arc are corners: stored twice, so each face keeps its own normal.
  const outline: Vec2[] = [[0, 0], [0, 0], peel[0]!, ...peel, peel[steps]!];
  const rings = Array.from({ length: 13 }, (_, i) => {
    const t = (i / 12) * 2 - 1;
    return { y: (t * length) / 2, scale: Math.sqrt(1 - t * t) };
  });
  return sweep(outline, rings);
}

/**
 * A lemon wedge lying peel down along x, its cut faces meeting in a ridge on top. The flesh is a
 * slightly smaller, slightly wider wedge whose cut faces stand just proud of the peel's.
 */
function lemonWedge(length: number, radius: number): { peel: Mesh; flesh: Mesh } {
  const lie = (mesh: Mesh) => translate(rotateZ(mesh, Math.PI / 2), 0, radius, 0);
  return { peel: lie(wedge(length, radius, 0.9)), flesh: lie(translate(wedge(length * 0.97, radius * 0.88, 0.96), 0.0006, 0, 0)) };
}

/** Crispy calamari: a heap of golden battered rings, a lemon wedge and a little bowl of aioli. */
export function calamari(): Part[] {
  const random = seededRandom(17);
  const floor = plateFloor();
  const rings = Array.from({ length: 17 }, (_, i) => {
    const layer = i < 11 ? 0 : 1;
    const angle = layer ? random(0, Math.PI * 2) : (i / 11) * Math.PI * 2 + random(-0.2, 0.2);
    const distance = layer ? random(0, 0.025) : random(0.03, 0.065);
    const radius = random(0.016, 0.02);
    const battered = displace(torus(radius, 0.0062, 24, 10), ([x, y, z]) => (valueNoise(x * 250, y * 250, z * 250, i) - 0.5) * 0.0025);
    const tilted = rotateZ(rotateX(battered, random(-0.3, 0.3)), random(-0.3, 0.3) + (layer ? 0.3 : 0));
    return place(
      tilted,
      [-0.03 + Math.cos(angle) * distance, floor + 0.007 + layer * 0.011, 0.01 + Math.sin(angle) * distance * 0.85],
      random(0, 6),
    );
  });
  const lemon = lemonWedge(0.075, 0.026);
  const onPlate = (mesh: Mesh) => place(mesh, [0.072, floor, 0.05], 0.5);
  const ramekinAt: [number, number, number] = [0.07, floor, -0.05];
  const aioli = lathe(
    [
      [0, 0.003],
      [0.027, 0.003],
      [0.027, 0.024],
      [0.018, 0.028],
      [0, 0.03],
    ],
    32,
  );
  return [
    part(PORCELAIN, [plateMesh()]),
    part(material('calamari', '#d8a23f', 0.85), rings),
    part(material('lemon-peel', '#f2c014', 0.45), [onPlate(lemon.peel)]),
    part(material('lemon-flesh', '#f8e48a', 0.35), [onPlate(lemon.flesh)]),
    part(material('ramekin', '#3f4a52', 0.5), [
      place(bowlMesh({ radius: 0.032, height: 0.03, foot: 0.028, wall: 0.003, segments: 36 }), ramekinAt),
    ]),
    part(material('aioli', '#f1e3b0', 0.35), [place(aioli, ramekinAt)]),
  ];
}
