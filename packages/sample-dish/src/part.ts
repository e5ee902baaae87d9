import type { Material } from './material.js';
import { mergeMeshes, type Mesh } from './mesh.js';

/** One material's share of a dish: every piece made of it, merged into one mesh. */
export interface Part {
  name: string;
  mesh: Mesh;
  material: Material;
}

export const part = (material: Material, meshes: Mesh[]): Part => ({ name: material.name, mesh: mergeMeshes(meshes), material });

export const triangleCount = (parts: Part[]): number => parts.reduce((sum, { mesh }) => sum + mesh.indices.length / 3, 0);
