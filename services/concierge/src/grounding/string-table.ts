/**
 * A hash table from strings to small integers laid out in one Int32Array, so that a worker thread can
 * build it and hand it over without copying, and the main thread can look keys up without rebuilding a
 * Map. Open addressing with linear probing at load ≤ 0.5; a slot holds value + 1 (0: empty). The keys
 * themselves are not stored here: the caller checks a candidate against its own copy of the key.
 */

/** FNV-1a over UTF-16 code units: the same number on both threads. */
export function hashString(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Slots for `keys` (value i for keys[i]); a repeated key keeps its first value. */
export function buildStringTable(keys: ArrayLike<string>): Int32Array {
  let size = 2;
  while (size < keys.length * 2) size *= 2;
  const slots = new Int32Array(size);
  for (let value = 0; value < keys.length; value++) {
    const key = keys[value]!;
    let slot = hashString(key) & (size - 1);
    while (slots[slot] !== 0 && keys[slots[slot]! - 1] !== key) slot = (slot + 1) & (size - 1);
    if (slots[slot] === 0) slots[slot] = value + 1;
  }
  return slots;
}

/** The value stored for `key`, or -1; `holds(value)` says whether that value's key is `key`. */
export function findInStringTable(slots: Int32Array, key: string, holds: (value: number) => boolean): number {
  const mask = slots.length - 1;
  for (let slot = hashString(key) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
    if (holds(slots[slot]! - 1)) return slots[slot]! - 1;
  }
  return -1;
}
