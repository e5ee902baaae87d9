import { boundsOf, type Mesh } from './mesh.js';
import { part, type Part } from './part.js';
import { PORCELAIN } from './tableware.js';

const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;
const FLOAT = 5126;
const UNSIGNED_SHORT = 5123;
const UNSIGNED_INT = 5125;

const padTo4 = (buffer: Buffer, fill = 0) => Buffer.concat([buffer, Buffer.alloc((4 - (buffer.length % 4)) % 4, fill)]);

function chunk(data: Buffer, type: number): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32LE(data.length, 0);
  header.writeUInt32LE(type, 4);
  return Buffer.concat([header, data]);
}

/**
 * A binary glTF 2.0 (GLB) with one node, mesh and PBR material per part; valid for the Khronos
 * validator, which the console runs on every upload.
 */
export function partsToGlb(parts: Part[]): Buffer {
  const views: Buffer[] = [];
  let byteOffset = 0;
  const bufferViews: object[] = [];
  const addView = (data: Buffer, target: number) => {
    bufferViews.push({ buffer: 0, byteOffset, byteLength: data.length, target });
    const padded = padTo4(data);
    views.push(padded);
    byteOffset += padded.length;
    return bufferViews.length - 1;
  };
  const accessors: object[] = [];
  const addAccessor = (accessor: object) => accessors.push(accessor) - 1;

  const meshes = parts.map(({ name, mesh }, index) => {
    const count = mesh.positions.length / 3;
    // The validator compares min/max with the stored float32 values, so bound those, not the doubles.
    const positions = new Float32Array(mesh.positions);
    const wide = count > 65535;
    const indices = wide ? new Uint32Array(mesh.indices) : new Uint16Array(mesh.indices);
    const positionAccessor = addAccessor({
      bufferView: addView(Buffer.from(positions.buffer), ARRAY_BUFFER),
      componentType: FLOAT,
      count,
      type: 'VEC3',
      ...boundsOf(Array.from(positions)),
    });
    const normalAccessor = addAccessor({
      bufferView: addView(Buffer.from(new Float32Array(mesh.normals).buffer), ARRAY_BUFFER),
      componentType: FLOAT,
      count,
      type: 'VEC3',
    });
    const indexAccessor = addAccessor({
      bufferView: addView(Buffer.from(indices.buffer), ELEMENT_ARRAY_BUFFER),
      componentType: wide ? UNSIGNED_INT : UNSIGNED_SHORT,
      count: mesh.indices.length,
      type: 'SCALAR',
    });
    return {
      name,
      primitives: [{ attributes: { POSITION: positionAccessor, NORMAL: normalAccessor }, indices: indexAccessor, material: index }],
    };
  });
  const materials = parts.map(({ material }) => ({
    name: material.name,
    pbrMetallicRoughness: {
      baseColorFactor: [...material.color, material.opacity],
      metallicFactor: 0,
      roughnessFactor: material.roughness,
    },
    ...(material.opacity < 1 ? { alphaMode: 'BLEND' } : {}),
  }));
  const bin = Buffer.concat(views);
  const json = {
    asset: { version: '2.0', generator: 'partner-platform sample-dish' },
    scene: 0,
    scenes: [{ nodes: parts.map((_, i) => i) }],
    nodes: parts.map(({ name }, i) => ({ name, mesh: i })),
    meshes,
    materials,
    buffers: [{ byteLength: bin.length }],
    bufferViews,
    accessors,
  };
  const body = Buffer.concat([chunk(padTo4(Buffer.from(JSON.stringify(json)), 0x20), 0x4e4f534a), chunk(bin, 0x004e4942)]);
  const header = Buffer.alloc(12);
  header.writeUInt32LE(0x46546c67, 0); // "glTF"
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + body.length, 8);
  return Buffer.concat([header, body]);
}

/** A GLB of a single porcelain mesh. */
export const meshToGlb = (mesh: Mesh): Buffer => partsToGlb([part(PORCELAIN, [mesh])]);
