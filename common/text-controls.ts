/**
 * Characters no farmer-facing text may hold: C0 controls other than tab, line feed and carriage
 * return; DEL and the C1 controls; and the bidirectional embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069), which can make a dose or a name read differently from what was
 * typed. One rule for every way text comes in: a form, a translators' file, a spreadsheet row, a
 * model's labels.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

export const hasControlCharacters = (text: string): boolean => CONTROL.test(text);

/** The control characters a text holds, as U+ codes (the first three kinds): 'U+202E, U+0007'. */
export function visibleControls(text: string): string {
  const codes = new Set<string>();
  for (const m of text.matchAll(CONTROLS)) {
    codes.add(`U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
    if (codes.size === 3) break;
  }
  return [...codes].join(', ');
}

export const CONTROL_TEXTS = {
  refused: (codes: string) =>
    `Remove the hidden control characters (${codes}) from this text: they can change how it reads in the farmer app.`,
} as const;
