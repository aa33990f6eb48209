/**
 * The tamper-evident audit trail (verification, anchors, retention archives): texts shown on
 * the History screen and printed by `npm run audit:verify`, shared by server and browser.
 */
export const AUDIT_TRAIL = {
  heading: 'Audit trail integrity',
  never: 'The audit trail has not been verified yet.',
  running: (checked: number, total: number) => `Verifying… ${checked.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} entries`,
  ok: (checked: number, when: string) => `Verified ${when}: all ${checked.toLocaleString('en-US')} entries are intact and in order.`,
  failed: (when: string) => `Verification of ${when} found a problem:`,
  error: (when: string) => `Verification of ${when} could not finish. Try again.`,
  verifyNow: 'Verify now',
  verifying: 'Verifying…',
  anchorNow: 'Save a checkpoint now',
  anchorWritten: (index: number) => `Checkpoint saved: the history up to entry #${index.toLocaleString('en-US')} is sealed.`,
  archivesHeading: 'Archived entries',
  archivesNone: 'No entries have been archived.',
  archiveRow: (first: number, last: number, count: number) =>
    `#${first.toLocaleString('en-US')}–#${last.toLocaleString('en-US')} (${count.toLocaleString('en-US')} entries)`,
  downloadCsv: 'Download CSV',
  problems: {
    changed: (index: number, id: string) => `Entry #${index} (${id}) was changed after it was written.`,
    removed: (index: number, nextIndex: number | null, nextId: string | null) =>
      nextIndex === null
        ? `Entry #${index} and those after it are missing: they were removed.`
        : `Entry #${index} is missing: it was removed (the chain continues at #${nextIndex}, ${nextId}).`,
    outOfOrder: (index: number, id: string) =>
      `Entry #${index} (${id}) does not follow the entry before it: entries were inserted, removed or reordered here.`,
    unchained: (count: number, id: string) =>
      `${count} ${count === 1 ? 'entry is' : 'entries are'} not part of the chain (written into the database around the console), first ${id}.`,
    beyondHead: (index: number, id: string) =>
      `Entry #${index} (${id}) lies beyond the chain's recorded head: it was inserted outside the console.`,
    headMismatch: "The chain's recorded head does not match its last entry: the head or the last entries were rewritten.",
    anchor: (index: number, file: string) =>
      `Entry #${index} does not match the anchor ${file}: the chain was rewritten after the anchor was taken.`,
    archive: (file: string, detail: string) => `Archive ${file}: ${detail}`,
  },
  summary: (count: number, first: number, last: number, days: number, file: string) =>
    `Archived ${count.toLocaleString('en-US')} history entries (#${first}–#${last}, older than ${days} days) to ${file}, then removed them from the database.`,
  anchorMail: {
    subject: (index: number) => `PalaYan Admin audit anchor: entry #${index}`,
    text: (anchor: string) =>
      `This is the current head of the PalaYan Admin audit trail. Keep this email: if the audit trail is ` +
      `ever rewritten, it will not match this anchor.\n\n${anchor}\n\nTo check it: npm run audit:verify -- ` +
      `--anchor <file with the JSON above>\n`,
  },
} as const;

export const AUDIT_TRAIL_LIMITS = {
  /** Entries read per query while verifying or archiving. */
  batch: 5000,
  /** Entries removed per transaction once archived, so writers wait at most one batch. */
  deleteBatch: 1000,
  /** How often an instance checks whether the daily anchor/retention/verification run is due. */
  dailyCheckMs: 60 * 60_000,
  dailyEveryMs: 24 * 60 * 60_000,
  /** A verification row still 'running' after this long belonged to an instance that stopped. */
  staleRunMs: 30 * 60_000,
} as const;
