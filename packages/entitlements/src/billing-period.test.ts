import { describe, expect, it } from 'vitest';
import { billingPeriod } from './billing-period.js';

const d = (iso: string) => new Date(iso);

describe('billingPeriod', () => {
  it('runs from the anchor day to the same day next month', () => {
    expect(billingPeriod(d('2026-01-15T10:00:00Z'), d('2026-11-20T00:00:00Z'))).toEqual({
      start: d('2026-11-15T10:00:00Z'),
      end: d('2026-12-15T10:00:00Z'),
    });
  });

  it('belongs to the previous period just before the anchor time', () => {
    expect(billingPeriod(d('2026-01-15T10:00:00Z'), d('2026-11-15T09:59:59.999Z')).start).toEqual(d('2026-10-15T10:00:00Z'));
    expect(billingPeriod(d('2026-01-15T10:00:00Z'), d('2026-11-15T10:00:00Z')).start).toEqual(d('2026-11-15T10:00:00Z'));
  });

  it('clamps an anchor on the 31st to shorter months, and crosses years', () => {
    expect(billingPeriod(d('2026-01-31T00:00:00Z'), d('2027-02-28T12:00:00Z'))).toEqual({
      start: d('2027-02-28T00:00:00Z'),
      end: d('2027-03-31T00:00:00Z'),
    });
    expect(billingPeriod(d('2025-12-31T00:00:00Z'), d('2026-01-05T00:00:00Z')).start).toEqual(d('2025-12-31T00:00:00Z'));
  });

  it('starts at the anchor in the first month', () => {
    const anchor = d('2026-11-22T14:00:00Z');
    expect(billingPeriod(anchor, anchor).start).toEqual(anchor);
  });
});
