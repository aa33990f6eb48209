import { describe, expect, it } from 'vitest';
import {
  calendarDayLabel,
  manilaClock,
  manilaDateTime,
  manilaDateTimeSeconds,
  manilaLongDate,
  manilaMoment,
  manilaShortDate,
  manilaTime,
} from '../../common/manila-time';

// The hand-written formatters must write exactly what Intl writes for en-PH in Asia/Manila
// (the formatters they replaced), including every month and weekday, noon and midnight,
// the turn of a year and a leap day.
const intl = (options: Intl.DateTimeFormatOptions, locale = 'en-PH') =>
  new Intl.DateTimeFormat(locale, { timeZone: 'Asia/Manila', ...options });
const oracle = {
  clock: intl({ hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: true }),
  longDate: intl({ weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }),
  shortDate: intl({ year: 'numeric', month: 'short', day: 'numeric' }),
  time: intl({ hour: 'numeric', minute: '2-digit' }),
  dateTime: intl({ dateStyle: 'medium', timeStyle: 'short' }),
  seconds: intl(
    { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', hour12: true },
    'en-US',
  ),
  moment: intl({ year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' }),
  calendarDay: new Intl.DateTimeFormat('en-PH', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
};

const HOUR = 3_600_000;
const fixed = [
  '2026-11-24T16:00:00Z', // midnight in Manila
  '2026-11-25T04:00:00Z', // noon
  '2026-11-25T03:59:59Z', // a second before noon
  '2026-12-31T15:59:59Z', // the last second of a Manila year
  '2026-12-31T16:00:00Z', // the first of the next
  '2028-02-28T16:30:00Z', // a leap day
  '2001-09-09T01:46:40Z',
  '2099-07-04T09:05:07Z',
].map((iso) => Date.parse(iso));
// Every month, every weekday and every hour of the day, at uneven minutes and seconds.
const spread = Array.from({ length: 400 }, (_, i) => Date.UTC(2024, 0, 1) + i * (37 * HOUR + 61_001));

describe('Manila dates and times without Intl', () => {
  it('writes every instant as Intl does', () => {
    const differences: string[] = [];
    for (const t of [...fixed, ...spread]) {
      const day = new Date(t).toISOString().slice(0, 10);
      const pairs: Array<[string, string]> = [
        [manilaClock(t), oracle.clock.format(t)],
        [manilaLongDate(t), oracle.longDate.format(t)],
        [manilaShortDate(t), oracle.shortDate.format(t)],
        [manilaTime(t), oracle.time.format(t)],
        [manilaDateTime(t), oracle.dateTime.format(t)],
        [manilaDateTimeSeconds(t), oracle.seconds.format(t)],
        [manilaMoment(t), oracle.moment.format(t)],
        [calendarDayLabel(day), oracle.calendarDay.format(new Date(`${day}T00:00:00Z`))],
      ];
      for (const [ours, theirs] of pairs) if (ours !== theirs) differences.push(`${new Date(t).toISOString()}: ${ours} ≠ ${theirs}`);
    }
    expect(differences).toEqual([]);
  });

  it('accepts a Date as well as a number', () => {
    const t = Date.parse('2026-11-24T18:05:09Z');
    expect(manilaClock(new Date(t))).toBe('02:05:09 AM');
    expect(manilaLongDate(new Date(t))).toBe('Wednesday, November 25, 2026');
    expect(manilaMoment(t)).toBe('11/25/2026, 2:05:09 AM');
    expect(manilaDateTime(t)).toBe('Nov 25, 2026, 2:05 AM');
    expect(calendarDayLabel('2026-09-07')).toBe('Sep 7');
  });
});
