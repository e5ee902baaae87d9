import { fileTypeFromBuffer } from 'file-type';
import yauzl from 'yauzl';
import type { AssetKind } from '@partner/assets';

export type CheckResult = { ok: true } | { ok: false; reason: string };

/** A GLB must pass the Khronos glTF validator with no errors (warnings are fine). */
export async function checkGlb(data: Buffer): Promise<CheckResult> {
  if (data.length < 12 || data.readUInt32LE(0) !== 0x46546c67) return { ok: false, reason: 'glb: not a binary glTF file (no glTF header)' };
  // Loaded at the first model checked: 300 KB of code that a console serving no uploads never needs.
  const { validateBytes } = await import('gltf-validator');
  try {
    const report = await validateBytes(new Uint8Array(data), { format: 'glb', maxIssues: 20 });
    if (report.issues.numErrors === 0) return { ok: true };
    const first = report.issues.messages.find((message) => message.severity === 0);
    return {
      ok: false,
      reason: `glb: ${report.issues.numErrors} validation error(s)${first ? `, first: ${first.code} ${first.message}` : ''}`,
    };
  } catch (err) {
    return { ok: false, reason: `glb: the validator could not read it (${String(err).slice(0, 200)})` };
  }
}

function zipEntries(data: Buffer): Promise<{ fileName: string; compressionMethod: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(data, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('unreadable zip'));
      const entries: { fileName: string; compressionMethod: number }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push({ fileName: entry.fileName, compressionMethod: entry.compressionMethod });
        zip.readEntry();
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A USDZ is an uncompressed zip whose first file, the default layer, is a USD file (.usd, .usda, .usdc). */
export async function checkUsdz(data: Buffer): Promise<CheckResult> {
  let entries: { fileName: string; compressionMethod: number }[];
  try {
    entries = await zipEntries(data);
  } catch {
    return { ok: false, reason: 'usdz: not a zip archive' };
  }
  const first = entries[0];
  if (!first || !/\.usd[ac]?$/i.test(first.fileName))
    return { ok: false, reason: 'usdz: the first file in the archive is not a USD layer' };
  if (entries.some((entry) => entry.compressionMethod !== 0)) return { ok: false, reason: 'usdz: files must be stored uncompressed' };
  return { ok: true };
}

const THUMBNAIL_TYPES: Record<string, AssetKind> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** The thumbnail must really be a PNG, JPEG or WebP image, whatever its name says. */
export async function checkThumbnail(data: Buffer): Promise<{ ok: true; kind: AssetKind } | { ok: false; reason: string }> {
  const type = await fileTypeFromBuffer(data);
  const kind = type && THUMBNAIL_TYPES[type.mime];
  return kind ? { ok: true, kind } : { ok: false, reason: 'thumbnail: must be a PNG, JPEG or WebP image' };
}
