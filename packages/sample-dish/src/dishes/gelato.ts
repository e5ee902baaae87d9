import { material } from '../material.js';
import type { Vec3 } from '../mesh.js';
import { part, type Part } from '../part.js';
import { seededRandom, valueNoise } from '../random.js';
import { leaf, sphere } from '../shapes.js';
import { coupeMesh } from '../tableware.js';
import { displace, place, rotateX, rotateZ, scale } from '../transform.js';

const SCOOP = 0.028;

/** A scoop of gelato on a unit sphere: lumpy all over, with a ragged lip where the scoop was dragged. */
const scoop = (seed: number) =>
  displace(sphere(28, 18), ([x, y, z]) => {
    const lumps = (valueNoise(x * 4, y * 4, z * 4, seed) - 0.5) * 0.12;
    const lip =
      y < 0.1 && y > -0.6 ? (valueNoise(Math.atan2(z, x) * 3, y * 3, seed, seed + 1) - 0.3) * 0.25 * (1 - Math.abs(y + 0.25) / 0.35) : 0;
    return lumps + Math.max(0, lip);
  });

/** Three scoops of pistachio gelato in a stemmed glass coupe, sprinkled with chopped pistachios. */
export function gelato(): Part[] {
  const random = seededRandom(29);
  const glass = coupeMesh({ radius: 0.07, depth: 0.045, stem: 0.04 });
  const centres = [0, 1, 2].map((i): Vec3 => {
    const angle = (i / 3) * Math.PI * 2 + Math.PI / 2;
    return [Math.cos(angle) * 0.026, glass.floor + 0.03 + (i === 0 ? 0.004 : 0), Math.sin(angle) * 0.026];
  });
  const scoops = centres.map((at, i) => place(scale(scoop(i), SCOOP), at));
  // Chopped nuts rest on the scoops' upper halves.
  const nuts = Array.from({ length: 36 }, (_, i) => {
    const centre = centres[i % 3]!;
    const [theta, phi] = [random(0, Math.PI * 2), random(0, 1.0)];
    const normal: Vec3 = [Math.cos(theta) * Math.sin(phi), Math.cos(phi), Math.sin(theta) * Math.sin(phi)];
    const bit = rotateZ(scale(sphere(6, 4), random(0.0015, 0.0028), 0.0012, random(0.0012, 0.002)), phi);
    return place(bit, [centre[0] + normal[0] * SCOOP, centre[1] + normal[1] * SCOOP, centre[2] + normal[2] * SCOOP], -theta);
  });
  const top = Math.max(...centres.map(([, y]) => y)) + SCOOP;
  const mint = [0, 1].map((i) =>
    place(
      rotateX(leaf(0.032, 0.02, { curl: 0.004, fold: 0.003 }), 0.15 - i * 0.3),
      [-0.004 + i * 0.008, top - 0.004, -0.008 + i * 0.004],
      0.6 + i * 2.2,
    ),
  );
  return [
    part(material('glass', '#dce9ee', 0.05, 0.25), [glass.mesh]),
    part(material('pistachio-gelato', '#c2d394', 0.7), scoops),
    part(material('pistachios', '#6f9a3a', 0.6), nuts),
    part(material('mint', '#3f8f3f', 0.45), mint),
  ];
}
