import { describe, expect, it } from 'vitest';
import { LocalWindowCounter } from './local-window-counter.js';

const minuteStart = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);

describe('LocalWindowCounter', () => {
  it('hands a bucket over once: what Redis took leaves, what came after stays, another minute is untouched', () => {
    const counter = new LocalWindowCounter();
    for (let i = 0; i < 3; i++) counter.take('a', 10, minuteStart);
    counter.take('b', 10, minuteStart);
    const { minute, counts } = counter.counted(minuteStart);
    expect(counts).toEqual([
      ['a', 3],
      ['b', 1],
    ]);
    counter.take('a', 10, minuteStart + 1_000); // counted while the hand-over runs
    counter.handedOver('a', 3, minute);
    // 'b' was cut short by the deadline: the next probe hands over what is left, and only that.
    expect(counter.counted(minuteStart + 2_000).counts).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    counter.handedOver('b', 1, minute - 1); // a hand-over of a past minute changes nothing
    expect(counter.counted(minuteStart + 2_000).counts).toContainEqual(['b', 1]);
  });
});
