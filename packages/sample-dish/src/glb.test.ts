import { validateBytes } from 'gltf-validator';
import { describe, expect, it } from 'vitest';
import { meshToGlb, partsToGlb } from './glb.js';
import { material } from './material.js';
import { part } from './part.js';
import { sphere } from './shapes.js';
import { plateMesh } from './tableware.js';
import { readGlbJson } from './testing/read-files.js';

const UNSIGNED_SHORT = 5123;
const UNSIGNED_INT = 5125;

describe('partsToGlb', () => {
  it('switches to 32-bit indices for a part of more than 65535 vertices, and stays valid', async () => {
    const big = sphere(400, 200);
    expect(big.positions.length / 3).toBeGreaterThan(65535);
    const glb = partsToGlb([part(material('big', '#808080', 0.5), [big]), part(material('small', '#ffffff', 0.5), [sphere()])]);
    const json = readGlbJson(glb);
    expect(json.meshes.map(({ primitives }) => json.accessors[primitives[0]!.indices]!.componentType)).toEqual([
      UNSIGNED_INT,
      UNSIGNED_SHORT,
    ]);
    const report = await validateBytes(new Uint8Array(glb), { format: 'glb', maxIssues: 10 });
    expect(report.issues.messages).toEqual([]);
  });

  it('writes see-through materials with alpha blending', () => {
    const json = readGlbJson(partsToGlb([part(material('glass', '#ffffff', 0.05, 0.3), [sphere()])]));
    expect(json.materials[0]).toMatchObject({
      alphaMode: 'BLEND',
      pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, 0.3], metallicFactor: 0 },
    });
  });
});

describe('meshToGlb', () => {
  it('still writes one mesh as a valid porcelain GLB', async () => {
    const glb = meshToGlb(plateMesh({ radius: 0.1 }));
    expect(readGlbJson(glb).materials.map(({ name }) => name)).toEqual(['porcelain']);
    const report = await validateBytes(new Uint8Array(glb), { format: 'glb', maxIssues: 10 });
    expect(report.issues.messages).toEqual([]);
  });
});
