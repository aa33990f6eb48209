// Formatters are made once: building an Intl formatter for each label took ~25 ms of a slow
// phone's first dashboard render (48 chart labels).
const DAY = new Intl.DateTimeFormat('en-PH', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const MOMENT = new Intl.DateTimeFormat('en-PH', { timeZone: 'Asia/Manila', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** 'Nov 24' for a calendar day 'YYYY-MM-DD' (a chart's week or day). */
export const dayLabel = (day: string) => DAY.format(new Date(`${day}T00:00:00Z`));

/** The full Manila date and time of an instant, for a title. */
export const momentLabel = (iso: string) => MOMENT.format(new Date(iso));
