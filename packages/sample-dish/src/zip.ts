import { crc32 } from 'node:zlib';

const ALIGNMENT = 64;
// The extra-field id USD's own zip writer pads with.
const PADDING_FIELD = 0x1986;
const DOS_DATE_1980_01_01 = 0x0021;

/**
 * A zip of stored (uncompressed) files whose data each start at a 64-byte boundary, as the USDZ spec
 * requires so that readers can map the layers in place; an extra field in each local header pads it.
 */
export function storedZip(files: { name: string; data: Buffer }[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of files) {
    const fileName = Buffer.from(name);
    const unpadded = offset + 30 + fileName.length;
    let padding = (ALIGNMENT - (unpadded % ALIGNMENT)) % ALIGNMENT;
    if (padding > 0 && padding < 4) padding += ALIGNMENT; // an extra field needs 4 bytes of header
    const extra = Buffer.alloc(padding);
    if (padding > 0) {
      extra.writeUInt16LE(PADDING_FIELD, 0);
      extra.writeUInt16LE(padding - 4, 2);
    }
    const checksum = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed to extract
    local.writeUInt16LE(DOS_DATE_1980_01_01, 12);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    local.writeUInt16LE(extra.length, 28);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4); // version made by
    entry.writeUInt16LE(20, 6); // version needed to extract
    entry.writeUInt16LE(DOS_DATE_1980_01_01, 14);
    entry.writeUInt32LE(checksum, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, fileName);
    parts.push(local, fileName, extra, data);
    offset += 30 + fileName.length + extra.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}
