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
    const file = { checksum: crc32(data), size: data.length, nameLength: fileName.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeFileFields(local, 4, file);
    local.writeUInt16LE(extra.length, 28);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4); // version made by
    writeFileFields(entry, 6, file);
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

/**
 * The fields a local header and a central directory record share, in the same order from `at`:
 * version needed, flags and method (0: stored), time, date, CRC-32, both sizes, the name's length.
 */
function writeFileFields(header: Buffer, at: number, file: { checksum: number; size: number; nameLength: number }): void {
  header.writeUInt16LE(20, at); // version needed to extract
  header.writeUInt16LE(DOS_DATE_1980_01_01, at + 8);
  header.writeUInt32LE(file.checksum, at + 10);
  header.writeUInt32LE(file.size, at + 14);
  header.writeUInt32LE(file.size, at + 18);
  header.writeUInt16LE(file.nameLength, at + 22);
}
