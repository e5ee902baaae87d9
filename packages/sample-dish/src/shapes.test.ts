import { describe, expect, it } from 'vitest';
import type { Mesh } from './mesh.js';
import { box, cylinder, dome, ellipse, leaf, slab, sphere, torus } from './shapes.js';
import { bowlMesh, coupeMesh, plateMesh } from './tableware.js';
import { isWatertight, signedVolume } from './testing/mesh-checks.js';
import { rotateX, scale, translate } from './transform.js';

const SHAPES: [string, Mesh, number?][] = [
  ['sphere', sphere(), (4 / 3) * Math.PI],
  ['cylinder', cylinder(0.5, 2), Math.PI * 0.25 * 2],
  ['torus', torus(1, 0.25, 48, 24), 2 * Math.PI ** 2 * 0.25 ** 2],
  ['box', box(1, 2, 3), 6],
  ['rounded box', box(1, 0.5, 1, 0.1)],
  ['dome', dome()],
  ['slab', slab(ellipse(0.07, 0.05), 0.02, 0.006)],
  ['leaf', leaf(0.05, 0.03, { curl: 0.005, fold: 0.004, ruffle: 0.001 })],
  ['plate', plateMesh()],
  ['bowl', bowlMesh({ radius: 0.11, height: 0.075, foot: 0.045, wall: 0.005 })],
  ['coupe', coupeMesh({ radius: 0.07, depth: 0.045, stem: 0.04 }).mesh],
  ['a squashed, turned and moved sphere', translate(rotateX(scale(sphere(), 2, 0.5, 1), 0.7), 1, 2, 3), (4 / 3) * Math.PI],
];

describe('shapes', () => {
  it.each(SHAPES)('a %s is closed and faces outwards', (_, mesh, volume) => {
    expect(isWatertight(mesh)).toBe(true);
    expect(signedVolume(mesh)).toBeGreaterThan(0);
    if (volume !== undefined) expect(signedVolume(mesh) / volume).toBeCloseTo(1, 1);
  });

  it.each(SHAPES)('a %s has a unit normal at every vertex', (_, mesh) => {
    expect(mesh.normals).toHaveLength(mesh.positions.length);
    for (let i = 0; i < mesh.normals.length; i += 3)
      expect(Math.hypot(mesh.normals[i]!, mesh.normals[i + 1]!, mesh.normals[i + 2]!)).toBeCloseTo(1, 6);
  });

  it('a sphere’s normals point away from its centre', () => {
    const { positions, normals } = sphere();
    for (let i = 0; i < positions.length; i += 3) {
      expect(positions[i]! * normals[i]! + positions[i + 1]! * normals[i + 1]! + positions[i + 2]! * normals[i + 2]!).toBeGreaterThan(0.95);
    }
  });
});
