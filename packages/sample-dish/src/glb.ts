import { plateMesh, type Mesh } from './geometry.js';

const pad4 = (length: number) => (4 - (length % 4)) % 4;

function bounds(positions: number[]): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3]!, positions[i]!);
    max[i % 3] = Math.max(max[i % 3]!, positions[i]!);
  }
  return { min, max };
}

/** A binary glTF 2.0 (GLB) of a mesh with one PBR material; valid for the Khronos validator. */
export function meshToGlb(mesh: Mesh, color: [number, number, number, number] = [0.95, 0.93, 0.88, 1]): Buffer {
  const positions = Buffer.from(new Float32Array(mesh.positions).buffer);
  const normals = Buffer.from(new Float32Array(mesh.normals).buffer);
  const indices = Buffer.from(new Uint16Array(mesh.indices).buffer);
  const indexPadding = Buffer.alloc(pad4(indices.length));
  const bin = Buffer.concat([positions, normals, indices, indexPadding]);
  const count = mesh.positions.length / 3;
  const json = {
    asset: { version: '2.0', generator: 'partner-platform sample-dish' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: 'plate' }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, material: 0 }] }],
    materials: [{ name: 'porcelain', pbrMetallicRoughness: { baseColorFactor: color, metallicFactor: 0, roughnessFactor: 0.4 } }],
    buffers: [{ byteLength: bin.length }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: positions.length, target: 34962 },
      { buffer: 0, byteOffset: positions.length, byteLength: normals.length, target: 34962 },
      { buffer: 0, byteOffset: positions.length + normals.length, byteLength: indices.length, target: 34963 },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count, type: 'VEC3', ...bounds(mesh.positions) },
      { bufferView: 1, componentType: 5126, count, type: 'VEC3' },
      { bufferView: 2, componentType: 5123, count: mesh.indices.length, type: 'SCALAR' },
    ],
  };
  const jsonText = Buffer.from(JSON.stringify(json));
  const jsonChunk = Buffer.concat([jsonText, Buffer.alloc(pad4(jsonText.length), 0x20)]);
  const header = Buffer.alloc(12);
  const chunkHeader = (length: number, type: number) => {
    const buffer = Buffer.alloc(8);
    buffer.writeUInt32LE(length, 0);
    buffer.writeUInt32LE(type, 4);
    return buffer;
  };
  const body = Buffer.concat([chunkHeader(jsonChunk.length, 0x4e4f534a), jsonChunk, chunkHeader(bin.length, 0x004e4942), bin]);
  header.writeUInt32LE(0x46546c67, 0); // "glTF"
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + body.length, 8);
  return Buffer.concat([header, body]);
}

export const createSampleDishGlb = (): Buffer => meshToGlb(plateMesh());
