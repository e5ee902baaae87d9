/**
 * Monthly billing periods counted from the restaurant's anchor: the period containing `now` starts on
 * the anchor's day of month (clamped to shorter months: an anchor on the 31st starts periods on the
 * 30th or 28th/29th) at the anchor's time of day, and ends where the next one starts.
 */
export function billingPeriod(anchor: Date, now: Date): { start: Date; end: Date } {
  let months = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  let start = addMonths(anchor, months);
  if (start > now) start = addMonths(anchor, --months);
  return { start, end: addMonths(anchor, months + 1) };
}

function addMonths(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}
