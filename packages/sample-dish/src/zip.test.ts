import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readZip } from './testing/read-files.js';
import { storedZip } from './zip.js';

describe('storedZip', () => {
  it('starts every file’s data on a 64-byte boundary, whatever the name and size before it', () => {
    for (let nameLength = 1; nameLength <= 70; nameLength++) {
      const files = [
        { name: `${'a'.repeat(nameLength)}.usda`, data: Buffer.from('#usda 1.0\n'.repeat(nameLength)) },
        { name: 'textures/c.png', data: Buffer.alloc(nameLength * 7 + 3, 1) },
        { name: 'z', data: Buffer.alloc(0) },
      ];
      const entries = readZip(storedZip(files));
      expect(entries.map(({ name }) => name)).toEqual(files.map(({ name }) => name));
      for (const [i, entry] of entries.entries()) {
        expect(entry.dataOffset % 64).toBe(0);
        expect(entry.method).toBe(0);
        expect(entry.data.equals(files[i]!.data)).toBe(true);
        expect(entry.crc).toBe(crc32(files[i]!.data));
      }
    }
  });
});
