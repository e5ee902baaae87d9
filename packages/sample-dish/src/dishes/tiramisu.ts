import { material } from '../material.js';
import { part, type Part } from '../part.js';
import { box, leaf } from '../shapes.js';
import { PORCELAIN, plateFloor, plateMesh } from '../tableware.js';
import { place, rotateX } from '../transform.js';

const SLICE = { width: 0.085, depth: 0.07, yaw: 0.45 };
const LAYERS = [
  { kind: 'sponge', height: 0.012 },
  { kind: 'cream', height: 0.018 },
  { kind: 'sponge', height: 0.012 },
  { kind: 'cream', height: 0.018 },
] as const;

/** Tiramisu: a square slice of coffee-soaked sponge and mascarpone layers under cocoa, on a dessert plate. */
export function tiramisu(): Part[] {
  const floor = plateFloor(0.016);
  const layers: Record<'sponge' | 'cream', ReturnType<typeof box>[]> = { sponge: [], cream: [] };
  let y = floor;
  for (const { kind, height } of LAYERS) {
    // Cream bulges a millimetre past the sponge, as it does when a slice is cut and served.
    const grow = kind === 'cream' ? 0.002 : 0;
    layers[kind].push(place(box(SLICE.width + grow, height, SLICE.depth + grow, 0.002), [0, y, 0], SLICE.yaw));
    y += height;
  }
  const cocoa = place(box(SLICE.width + 0.002, 0.003, SLICE.depth + 0.002, 0.0012), [0, y, 0], SLICE.yaw);
  const top = y + 0.003;
  return [
    part(PORCELAIN, [plateMesh({ radius: 0.1, height: 0.016 })]),
    part(material('coffee-sponge', '#8a5630', 0.85), layers.sponge),
    part(material('mascarpone', '#f4ead4', 0.6), layers.cream),
    part(material('cocoa', '#6a4028', 1), [cocoa]),
    part(material('mint', '#3f8f3f', 0.45), [
      place(rotateX(leaf(0.03, 0.018, { curl: 0.003, fold: 0.002 }), 0.1), [0.01, top, 0.005], 0.8),
      place(rotateX(leaf(0.026, 0.016, { curl: 0.003, fold: 0.002 }), -0.1), [-0.008, top + 0.001, 0.0], 2.6),
    ]),
  ];
}
