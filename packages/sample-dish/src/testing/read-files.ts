/** Readers for the tests: what a GLB's JSON says, what a zip's entries are and where their data starts. */

export interface GlbJson {
  meshes: { name: string; primitives: { attributes: { POSITION: number }; indices: number; material: number }[] }[];
  materials: { name: string; alphaMode?: string; pbrMetallicRoughness: { baseColorFactor: number[]; metallicFactor: number } }[];
  accessors: { count: number; componentType: number; min?: number[]; max?: number[] }[];
}

export function readGlbJson(glb: Buffer): GlbJson {
  const length = glb.readUInt32LE(12);
  return JSON.parse(glb.subarray(20, 20 + length).toString()) as GlbJson;
}

export interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  dataOffset: number;
  data: Buffer;
}

/** The entries in central-directory order, each read through its local header as an unzipper would. */
export function readZip(zip: Buffer): ZipEntry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let cursor = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(cursor) !== 0x02014b50) throw new Error(`no central directory entry at ${cursor}`);
    const nameLength = zip.readUInt16LE(cursor + 28);
    const local = zip.readUInt32LE(cursor + 42);
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`no local header at ${local}`);
    const dataOffset = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const size = zip.readUInt32LE(local + 18);
    entries.push({
      name: zip.subarray(cursor + 46, cursor + 46 + nameLength).toString(),
      method: zip.readUInt16LE(local + 8),
      crc: zip.readUInt32LE(local + 14),
      dataOffset,
      data: zip.subarray(dataOffset, dataOffset + size),
    });
    cursor += 46 + nameLength + zip.readUInt16LE(cursor + 30) + zip.readUInt16LE(cursor + 32);
  }
  return entries;
}
