import { describe, expect, it } from 'vitest';
import { AssetSigner, assetStorageKey } from './asset-signing.js';

const signer = new AssetSigner({ secret: 's'.repeat(32), publicBaseUrl: 'https://api.example.com', ttlSeconds: 900 });
const hash = 'ab'.repeat(32);
const glb = assetStorageKey(hash, 'glb');
const usdz = assetStorageKey(hash, 'usdz');
const pathOf = (url: string) => new URL(url).pathname.split('/').slice(3);

describe('AssetSigner', () => {
  const now = new Date('2026-11-22T12:00:00.250Z');
  const expiresAt = signer.expiry(now);

  it('signs a URL that checks out until it expires, then reports it expired', () => {
    const url = signer.url(glb, expiresAt);
    expect(url).toMatch(new RegExp(`^https://api.example.com/v1/assets/${expiresAt.getTime() / 1000}/[\\w-]+/${hash}/dish.glb$`));
    expect(signer.check(pathOf(url), now)).toEqual({ ok: true, storageKey: glb, kind: 'glb' });
    expect(signer.check(pathOf(url), expiresAt)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a URL whose signature, expiry or file was changed', () => {
    const [exp, sig, contentHash, fileName] = pathOf(signer.url(glb, expiresAt)) as [string, string, string, string];
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect(signer.check([exp, flipped, contentHash, fileName], now)).toEqual({ ok: false, reason: 'invalid' });
    expect(signer.check([String(Number(exp) + 60), sig, contentHash, fileName], now)).toEqual({ ok: false, reason: 'invalid' });
    expect(signer.check([exp, sig, contentHash, 'dish.usdz'], now)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('gives each file and each expiry its own signature, also when the URLs of a second are reused', () => {
    const later = new Date(expiresAt.getTime() + 1000);
    const urls = [signer.url(glb, expiresAt), signer.url(usdz, expiresAt), signer.url(glb, later), signer.url(glb, expiresAt)];
    expect(new Set(urls.slice(0, 3)).size).toBe(3);
    expect(urls[3]).toBe(urls[0]);
    for (const url of urls) expect(signer.check(pathOf(url), now).ok).toBe(true);
  });
});
