import { material } from '../material.js';
import { part, type Part } from '../part.js';
import { seededRandom, valueNoise } from '../random.js';
import { circle, type Vec2 } from '../sweep.js';
import { dome, leaf, slab, sphere } from '../shapes.js';
import { plateFloor, plateMesh } from '../tableware.js';
import { displace, place, scale } from '../transform.js';

const BALL = { radius: 0.045, height: 0.036 };

/**
 * Burrata on a dark stoneware plate (white cheese on white porcelain would vanish), in a pool of olive
 * oil, with red and yellow cherry tomatoes and basil.
 */
export function burrata(): Part[] {
  const random = seededRandom(3);
  const floor = plateFloor();
  const centre = floor + BALL.height - 0.002;
  const ball = displace(
    scale(sphere(32, 20), BALL.radius, BALL.height, BALL.radius),
    ([x, y, z]) => (valueNoise(x * 60, y * 60, z * 60, 1) - 0.5) * 0.003,
  );
  // The pouch is tied at the top: a small knot of the same cheese.
  const knot = scale(sphere(16, 10), 0.012, 0.009, 0.012);
  // Cherry tomato halves, cut side down, in a loose ring around the cheese; every third one is yellow.
  const halves = Array.from({ length: 12 }, (_, i) => {
    const angle = (i / 12) * Math.PI * 2 + random(-0.15, 0.15);
    const distance = random(0.07, 0.095);
    const radius = random(0.012, 0.015);
    return place(scale(dome(20, 6), radius, radius * 0.85, radius), [Math.cos(angle) * distance, floor, Math.sin(angle) * distance]);
  });
  const basil = Array.from({ length: 5 }, (_, i) => {
    const angle = (i / 5) * Math.PI * 2 + 0.25;
    const size = random(0.045, 0.055);
    return place(
      leaf(size, size * 0.58, { curl: 0.004, fold: 0.003 }),
      [Math.cos(angle) * 0.075, floor + 0.001, Math.sin(angle) * 0.075],
      -angle + 1.4,
    );
  });
  // A pool of olive oil spreading from under the cheese.
  const pool = circle(40).map(([x, z], k): Vec2 => {
    const r = 0.062 * (0.8 + 0.3 * valueNoise(k * 0.5, 0, 0, 9));
    return [x * r, z * r];
  });
  return [
    part(material('stoneware-plate', '#3b4449', 0.55), [plateMesh()]),
    part(material('burrata', '#f7f3ea', 0.45), [place(ball, [0, centre, 0]), place(knot, [0, centre + BALL.height + 0.003, 0])]),
    part(
      material('red-tomato', '#d02a1e', 0.3),
      halves.filter((_, i) => i % 3 !== 1),
    ),
    part(
      material('yellow-tomato', '#f4b41e', 0.3),
      halves.filter((_, i) => i % 3 === 1),
    ),
    part(material('basil', '#2e8b36', 0.4), basil),
    part(material('olive-oil', '#7d6a16', 0.05), [place(slab(pool, 0.0006, 0.0003), [0, floor, 0])]),
  ];
}
