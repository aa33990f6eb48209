/**
 * The department's time, and the dates and times its staff read, as en-PH writes them.
 *
 * These are formatted by hand, not with Intl.DateTimeFormat. A page's first Intl formatter
 * loads ICU's locale and zone data. In Chromium on our machines that takes 35 to 100 ms of
 * main-thread time, and the login page and the dashboard were paying it while they started.
 * On a slow phone that is the largest single task of the dashboard's first visit.
 * Manila needs no zone data: it is UTC+08:00 all year, with no daylight saving. So each field
 * is read from the UTC fields of the instant moved 8 hours on.
 * tests/unit/manila-time.test.ts checks every function against Intl's en-PH output.
 */
export const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const pad2 = (n: number) => String(n).padStart(2, '0');
const shortMonth = (month: number) => MONTHS[month]!.slice(0, 3);

/** Manila's wall clock at an instant. */
function wall(at: number | Date) {
  const d = new Date(+at + MANILA_OFFSET_MS);
  const hour = d.getUTCHours();
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
    hour12: hour % 12 || 12,
    minute: pad2(d.getUTCMinutes()),
    second: pad2(d.getUTCSeconds()),
    period: hour < 12 ? 'AM' : 'PM',
  };
}

/** '02:05:09 AM': the login screen's clock. */
export function manilaClock(at: number | Date): string {
  const w = wall(at);
  return `${pad2(w.hour12)}:${w.minute}:${w.second} ${w.period}`;
}

/** 'Wednesday, November 25, 2026'. */
export function manilaLongDate(at: number | Date): string {
  const w = wall(at);
  return `${WEEKDAYS[w.weekday]}, ${MONTHS[w.month]} ${w.day}, ${w.year}`;
}

type Wall = ReturnType<typeof wall>;
const shortDate = (w: Wall) => `${shortMonth(w.month)} ${w.day}, ${w.year}`;
const time = (w: Wall) => `${w.hour12}:${w.minute} ${w.period}`;

/** 'Nov 25, 2026'. */
export function manilaShortDate(at: number | Date): string {
  return shortDate(wall(at));
}

/** '2:05 AM'. */
export function manilaTime(at: number | Date): string {
  return time(wall(at));
}

/** 'Nov 25, 2026, 2:05 AM': a date with its time, as lists show when something was saved. */
export function manilaDateTime(at: number | Date): string {
  const w = wall(at);
  return `${shortDate(w)}, ${time(w)}`;
}

/** 'Nov 25, 2026, 2:05:09 AM': to the second, as History shows an entry. */
export function manilaDateTimeSeconds(at: number | Date): string {
  const w = wall(at);
  return `${shortDate(w)}, ${w.hour12}:${w.minute}:${w.second} ${w.period}`;
}

/** '11/25/2026, 2:05:09 AM': the full moment, for a title on hover. */
export function manilaMoment(at: number | Date): string {
  const w = wall(at);
  return `${w.month + 1}/${w.day}/${w.year}, ${w.hour12}:${w.minute}:${w.second} ${w.period}`;
}

/** 'Nov 24' for a calendar day 'YYYY-MM-DD' (a chart's week or day; no time zone involved). */
export function calendarDayLabel(day: string): string {
  const [, month, date] = day.split('-').map(Number);
  return `${shortMonth(month! - 1)} ${date}`;
}
