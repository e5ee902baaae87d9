import { validateBytes } from 'gltf-validator';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MENU, type DishKind } from './demo-menu.js';
import { createDishModel, createSampleDishGlb, createSampleDishUsdz, createSampleThumbnailPng, THUMBNAIL_SIZE } from './dish-model.js';
import { buildDish } from './dishes/index.js';
import { boundsOf } from './mesh.js';
import { triangleCount } from './part.js';
import { isWatertight, signedVolume } from './testing/mesh-checks.js';
import { readGlbJson, readZip } from './testing/read-files.js';

type Model = ReturnType<typeof createDishModel>;

const KINDS = [...new Set(DEMO_MENU.flatMap(({ dishes }) => dishes.map(({ model }) => model)))];
const models = new Map<DishKind, Model>();

// About 25 s alone on a slow 2-core machine, and past 60 s beside the other packages' tests there.
beforeAll(() => {
  for (const kind of KINDS) models.set(kind, createDishModel(kind));
}, 180_000);

const usdaOf = (usdz: Buffer) => readZip(usdz)[0]!.data.toString();
/** The number of entries in each `name = [...]` array of the usda, in file order. */
const arrayLengths = (usda: string, name: string) =>
  [...usda.matchAll(new RegExp(`${name.replace(/[[\]]/g, '\\$&')} = \\[([^\\]]*)\\]`, 'g'))].map(
    ([, body]) => (body!.match(/\(/g) ?? body!.split(',')).length,
  );

function pixels(png: Buffer) {
  const { width, height, data } = PNG.sync.read(png);
  return { width, height, data };
}

it('the demo menu names every kind of dish', () => {
  expect(KINDS.sort()).toEqual(['burrata', 'calamari', 'garden-salad', 'gelato', 'margherita', 'salmon', 'steak-frites', 'tiramisu']);
});

describe.each(KINDS)('the %s model', (kind) => {
  const model = () => models.get(kind)!;

  it('passes the Khronos glTF validator with no errors or warnings', async () => {
    const report = await validateBytes(new Uint8Array(model().glb), { format: 'glb', maxIssues: 20 });
    expect(report.issues.messages.filter(({ severity }) => severity <= 1)).toEqual([]);
  });

  it('has one PBR material per part, never metallic', () => {
    const parts = buildDish(kind);
    const json = readGlbJson(model().glb);
    expect(json.materials.map(({ name }) => name)).toEqual(parts.map(({ material }) => material.name));
    expect(new Set(json.materials.map(({ name }) => name)).size).toBe(parts.length);
    expect(json.materials.every(({ pbrMetallicRoughness }) => pbrMetallicRoughness.metallicFactor === 0)).toBe(true);
  });

  it('is a USDZ: an uncompressed zip, the usda layer first, its data 64-byte aligned', () => {
    const entries = readZip(model().usdz);
    expect(entries[0]!.name).toMatch(/\.usda$/);
    for (const entry of entries) {
      expect(entry.method).toBe(0);
      expect(entry.dataOffset % 64).toBe(0);
    }
  });

  it('has a usda layer in metres, Y up, whose every mesh is bound to its own UsdPreviewSurface material', () => {
    const usda = usdaOf(model().usdz);
    const parts = buildDish(kind);
    expect(usda).toMatch(/^#usda 1\.0\n\(\n {4}defaultPrim = "Dish"\n {4}metersPerUnit = 1\n {4}upAxis = "Y"\n\)/);
    const meshes = [...usda.matchAll(/def Mesh "(\w+)" \(\n\s+prepend apiSchemas = \["MaterialBindingAPI"\]\n\s+\)\n\s+\{([^}]*)\}/g)];
    expect(meshes).toHaveLength(parts.length);
    const bindings = meshes.map(([, , body]) => /rel material:binding = <([^>]+)>/.exec(body!)?.[1]);
    const materials = [...usda.matchAll(/def Material "(\w+)"/g)].map(([, name]) => `/Dish/Materials/${name}`);
    expect(new Set(bindings).size).toBe(parts.length);
    expect(bindings.every((binding) => binding && materials.includes(binding))).toBe(true);
    expect(usda.match(/uniform token info:id = "UsdPreviewSurface"/g)).toHaveLength(parts.length);
    expect(usda.match(/color3f inputs:diffuseColor = /g)).toHaveLength(parts.length);
  });

  it('carries the same geometry in both formats', () => {
    const usda = usdaOf(model().usdz);
    const json = readGlbJson(model().glb);
    const glbVertices = json.meshes.map(({ primitives }) => json.accessors[primitives[0]!.attributes.POSITION]!.count);
    const glbTriangles = json.meshes.map(({ primitives }) => json.accessors[primitives[0]!.indices]!.count / 3);
    expect(arrayLengths(usda, 'point3f[] points')).toEqual(glbVertices);
    expect(arrayLengths(usda, 'normal3f[] normals')).toEqual(glbVertices);
    expect(arrayLengths(usda, 'int[] faceVertexCounts')).toEqual(glbTriangles);
    expect(glbTriangles.reduce((a, b) => a + b)).toBe(triangleCount(buildDish(kind)));
  });

  it('is made of closed surfaces facing outwards, so renderers cull and shade them right', () => {
    for (const { name, mesh } of buildDish(kind)) {
      expect(isWatertight(mesh), name).toBe(true);
      expect(signedVolume(mesh), name).toBeGreaterThan(0);
    }
  });

  it('is true to size: resting on the table, within a 35 cm square, between 1 and 20 cm tall', () => {
    const { min, max } = boundsOf(buildDish(kind).flatMap(({ mesh }) => mesh.positions));
    expect(Math.abs(min[1])).toBeLessThan(0.001);
    expect(max[0] - min[0]).toBeLessThanOrEqual(0.35);
    expect(max[2] - min[2]).toBeLessThanOrEqual(0.35);
    expect(max[1] - min[1]).toBeGreaterThan(0.01);
    expect(max[1] - min[1]).toBeLessThan(0.2);
  });

  it('stays modest: a few thousand to 30k triangles, 3D files under 1 MB, a thumbnail under 200 KB', () => {
    const triangles = triangleCount(buildDish(kind));
    expect(triangles).toBeGreaterThan(2000);
    expect(triangles).toBeLessThan(30_000);
    expect(model().glb.length).toBeLessThan(1024 * 1024);
    expect(model().usdz.length).toBeLessThan(1024 * 1024);
    expect(model().thumbnail.length).toBeLessThan(200 * 1024);
  });

  it('has a thumbnail that shows something: square, and far from one flat colour', () => {
    const { width, height, data } = pixels(model().thumbnail);
    expect([width, height]).toEqual([THUMBNAIL_SIZE, THUMBNAIL_SIZE]);
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 4) colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    expect(colours.size).toBeGreaterThan(1000);
  });

  it('is the same bytes on every run', () => {
    const again = createDishModel(kind);
    expect(again.glb.equals(model().glb)).toBe(true);
    expect(again.usdz.equals(model().usdz)).toBe(true);
    expect(again.thumbnail.equals(model().thumbnail)).toBe(true);
  });
});

it('gives every dish a thumbnail of its own', () => {
  const images = KINDS.map((kind) => pixels(models.get(kind)!.thumbnail).data);
  for (let a = 0; a < images.length; a++) {
    for (let b = a + 1; b < images.length; b++) {
      let difference = 0;
      for (let i = 0; i < images[a]!.length; i++) difference += Math.abs(images[a]![i]! - images[b]![i]!);
      // Mean difference per channel: two renders of different dishes differ by far more than noise.
      expect(difference / images[a]!.length, `${KINDS[a]} vs ${KINDS[b]}`).toBeGreaterThan(10);
    }
  }
});

describe('the sample dish of the embed demo and older callers', () => {
  it('is a valid GLB, a USDZ and a thumbnail of the requested size', async () => {
    const report = await validateBytes(new Uint8Array(createSampleDishGlb()), { format: 'glb' });
    expect(report.issues.numErrors).toBe(0);
    expect(readZip(createSampleDishUsdz())[0]!.name).toMatch(/\.usda$/);
    expect(pixels(createSampleThumbnailPng(48))).toMatchObject({ width: 48, height: 48 });
  });
});
