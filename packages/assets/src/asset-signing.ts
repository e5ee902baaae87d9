import { HmacKey } from '@partner/signing';

// Signed asset URLs (DESIGN.md section 4): expiry and signature sit in the path and the file name
// comes last, because AR viewers (Scene Viewer, Quick Look) drop or mangle query strings and need the
// extension at the end: {base}/v1/assets/{expiresAt}/{signature}/{contentHash}/{fileName}.

export const ASSET_FILES = {
  glb: { fileName: 'dish.glb', contentType: 'model/gltf-binary' },
  usdz: { fileName: 'dish.usdz', contentType: 'model/vnd.usdz+zip' },
  png: { fileName: 'thumbnail.png', contentType: 'image/png' },
  jpg: { fileName: 'thumbnail.jpg', contentType: 'image/jpeg' },
  webp: { fileName: 'thumbnail.webp', contentType: 'image/webp' },
} as const;
export type AssetKind = keyof typeof ASSET_FILES;

/** Storage keys are `{sha256}.{kind}`: content-addressed, so a new upload never breaks a URL handed out. */
export const assetStorageKey = (contentHash: string, kind: AssetKind): string => `${contentHash}.${kind}`;

export function parseAssetStorageKey(key: string): { contentHash: string; kind: AssetKind } | null {
  const match = /^([0-9a-f]{64})\.(glb|usdz|png|jpg|webp)$/.exec(key);
  return match ? { contentHash: match[1]!, kind: match[2] as AssetKind } : null;
}

export type AssetCheck = { ok: true; storageKey: string; kind: AssetKind } | { ok: false; reason: 'invalid' | 'expired' };

export class AssetSigner {
  /** URLs signed for the current expiry second: under load, one HMAC per file per second, not per request. */
  private signed = { exp: -1, urls: new Map<string, string>() };

  private readonly key: HmacKey;

  constructor(private readonly options: { secret: string; publicBaseUrl: string; ttlSeconds: number }) {
    this.key = new HmacKey(options.secret);
  }

  /** A URL for a stored file, valid until `expiresAt` (seconds are whole, so every URL of one call agrees). */
  url(storageKey: string, expiresAt: Date): string {
    const exp = Math.floor(expiresAt.getTime() / 1000);
    if (this.signed.exp !== exp) this.signed = { exp, urls: new Map() };
    let url = this.signed.urls.get(storageKey);
    if (url === undefined) {
      const parsed = parseAssetStorageKey(storageKey);
      if (!parsed) throw new Error(`not an asset storage key: ${storageKey}`);
      const { fileName } = ASSET_FILES[parsed.kind];
      const sig = this.key.signToString(`${exp}/${parsed.contentHash}/${fileName}`);
      url = `${this.options.publicBaseUrl}/v1/assets/${exp}/${sig}/${parsed.contentHash}/${fileName}`;
      this.signed.urls.set(storageKey, url);
    }
    return url;
  }

  expiry(now: Date): Date {
    return new Date((Math.floor(now.getTime() / 1000) + this.options.ttlSeconds) * 1000);
  }

  /** Checks the path after /v1/assets/: the signature first (a tampered URL is never "expired"), then the time. */
  check(segments: string[], now: Date): AssetCheck {
    const [exp, sig, contentHash, fileName, ...rest] = segments;
    if (!exp || !sig || !contentHash || !fileName || rest.length || !/^\d{1,12}$/.test(exp)) return { ok: false, reason: 'invalid' };
    const kind = (Object.keys(ASSET_FILES) as AssetKind[]).find((k) => ASSET_FILES[k].fileName === fileName);
    if (!kind || !/^[0-9a-f]{64}$/.test(contentHash)) return { ok: false, reason: 'invalid' };
    if (!this.key.verify(`${exp}/${contentHash}/${fileName}`, sig)) return { ok: false, reason: 'invalid' };
    if (Number(exp) * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
    return { ok: true, storageKey: assetStorageKey(contentHash, kind), kind };
  }
}
