import { material } from '../material.js';
import type { Mesh } from '../mesh.js';
import { part, type Part } from '../part.js';
import { seededRandom, valueNoise } from '../random.js';
import { circle, lathe, type Vec2 } from '../sweep.js';
import { ellipse, leaf, slab, sphere } from '../shapes.js';
import { displace, place, rotateX, scale } from '../transform.js';

const BOARD = 0.018;

/** A blob of torn mozzarella: a soft slab with a wobbly, star-shaped outline. */
const mozzarella = (radius: number, seed: number): Mesh => {
  const outline = circle(20).map(([x, z], i): Vec2 => {
    const r = radius * (0.75 + 0.5 * valueNoise(i * 0.6, 0, 0, seed));
    return [x * r, z * r];
  });
  return slab(outline, 0.005, 0.0022);
};

/** Wood-fired margherita: a 30 cm pizza with a puffed, blistered crust, on a round wooden board. */
export function margherita(): Part[] {
  const random = seededRandom(7);
  // From the middle out: the thin base, up and over the puffed rim, back in to where the sauce starts.
  const crustProfile: Vec2[] = [
    [0, 0.001],
    [0.13, 0.001],
    [0.143, 0.003],
    [0.15, 0.009],
    [0.149, 0.016],
    [0.144, 0.021],
    [0.137, 0.022],
    [0.13, 0.019],
    [0.125, 0.012],
    [0.12, 0.007],
    [0, 0.006],
  ];
  const crust = displace(
    lathe(
      crustProfile.map(([r, y]) => [r, y + BOARD]),
      72,
    ),
    ([x, y, z]) => (Math.hypot(x, z) > 0.128 ? (valueNoise(x * 90, y * 90, z * 90, 3) - 0.5) * 0.004 : 0),
  );
  const sauce = lathe(
    (
      [
        [0, 0.005],
        [0.124, 0.005],
        [0.126, 0.0068],
        [0.121, 0.0078],
        [0, 0.0078],
      ] as Vec2[]
    ).map(([r, y]) => [r, y + BOARD]),
    64,
  );
  const patches = Array.from({ length: 8 }, (_, i) => {
    const angle = (i / 7) * Math.PI * 2 + random(-0.3, 0.3);
    const distance = i === 7 ? 0 : random(0.055, 0.085);
    return place(
      mozzarella(random(0.018, 0.026), i),
      [Math.cos(angle) * distance, BOARD + 0.0062, Math.sin(angle) * distance],
      random(0, 6),
    );
  });
  const basil = Array.from({ length: 6 }, (_, i) => {
    const angle = (i / 6) * Math.PI * 2 + 0.4;
    const distance = random(0.035, 0.09);
    const size = random(0.038, 0.05);
    return place(
      rotateX(leaf(size, size * 0.6, { curl: 0.003, fold: 0.003 }), random(-0.1, 0.1)),
      [Math.cos(angle) * distance, BOARD + 0.0115, Math.sin(angle) * distance],
      random(0, 6),
    );
  });
  // Leopard spots: the charred blisters of a wood-fired crust.
  const char = Array.from({ length: 11 }, (_, i) => {
    const angle = (i / 11) * Math.PI * 2 + random(-0.2, 0.2);
    const blister = scale(sphere(12, 6), random(0.008, 0.013), 0.0025, random(0.005, 0.008));
    return place(blister, [Math.cos(angle) * 0.14, BOARD + 0.02, Math.sin(angle) * 0.14], -angle);
  });
  return [
    part(material('board', '#a8743f', 0.7), [slab(ellipse(0.17, 0.17, 64), BOARD, 0.004)]),
    part(material('crust', '#dba561', 0.8), [crust]),
    part(material('char', '#8a5a30', 0.9), char),
    part(material('tomato-sauce', '#b3261e', 0.45), [sauce]),
    part(material('mozzarella', '#f5f1e6', 0.5), patches),
    part(material('basil', '#2e7d32', 0.4), basil),
  ];
}
