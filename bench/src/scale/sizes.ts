/** "10k,100k,1M" (or plain numbers) from an environment variable, ascending; `defaults` when unset. */
export function sizesFrom(variable: string, defaults: number[]): number[] {
  const raw = process.env[variable];
  if (!raw) return defaults;
  const sizes = raw.split(',').map((part) => {
    const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(part.trim());
    if (!match) throw new Error(`${variable}: "${part}" is not a size (write 1000, 10k or 1M)`);
    const unit = { '': 1, k: 1e3, K: 1e3, m: 1e6, M: 1e6 }[match[2]!]!;
    return Math.round(Number(match[1]) * unit);
  });
  return sizes.sort((a, b) => a - b);
}

/** 1,000,000 as "1M", 10,000 as "10k": the curves' row labels. */
export const sizeLabel = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));
