import { REVIEW_LIMITS, type ReviewDecisionKind } from './review.js';

/**
 * The Review screen's own texts (the queue, a change's page, its decisions, File Maintenance's
 * switches); the states, actions, errors and the texts the server sends are REVIEW_TEXTS
 * (common/review.ts).
 */
export const REVIEW_SCREEN = {
  subtitle: "Changes to the farmer app's content that wait for a second person before the app sees them.",
  columns: {
    collection: 'Collection',
    record: 'Record',
    action: 'Change',
    author: 'Sent by',
    submitted: 'Sent',
    state: 'State',
    scheduled: 'Publishes at',
  },
  stateFilter: 'Show',
  collectionFilter: 'Collection',
  allCollections: 'All collections',
  loadMore: 'Load more',
  loading: 'Loading changes...',
  shown: (shown: number, total: number) => `Showing ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`,
  newRecord: 'New entry',
  nobody: 'Unknown',
  back: 'Back to Review',
  open: (name: string) => `Open the change to ${name}`,
  sent: (name: string, when: string) => `Sent by ${name}, ${when}`,
  reviewed: (name: string, when: string) => `Reviewed by ${name}, ${when}`,
  publishedBy: (name: string, when: string) => `Published by ${name}, ${when}`,
  scheduledFor: (when: string) => `Publishes at ${when} (Manila time)`,
  importCounts: (parts: Array<[label: string, count: number]>) =>
    parts.map(([label, n]) => `${label}: ${n.toLocaleString('en-US')}`).join(' · '),
  commentLabel: "Reviewer's comment",
  breakGlassLabel: 'Published without review. Reason:',
  publishErrorLabel: 'Why it could not publish',
  comparisonTitle: 'What the change does',
  comparisonTable: 'Published and proposed values',
  /** A decided change's comparison: the states its reviewer saw, kept at the decision. */
  decidedTitle: {
    approved: 'What was approved',
    rejected: 'What was sent back',
    publishedWithoutReview: 'What was published without review',
  } satisfies Record<ReviewDecisionKind, string>,
  decidedHelp: (when: string) => `The published record and the change as they were when it was decided, ${when}.`,
  decidedTable: 'Published and proposed values when it was decided',
  publishedThen: 'Published then',
  decidedNotKept: "This change was decided before its comparison was kept. The record's History shows what changed.",
  /** Read out before a changed part of a value (the marks are not colour alone). */
  words: { added: 'added', removed: 'removed' },
  photoCounts: (published: number, proposed: number) =>
    `Photos: ${published.toLocaleString('en-US')} published, ${proposed.toLocaleString('en-US')} proposed.`,
  importTitle: 'Rows of the import',
  importColumns: { row: 'Row', name: 'Name', status: 'Result', changed: 'Changed fields' },
  translationsTitle: 'Translations of the file',
  translationColumns: { row: 'Unit', record: 'Record', field: 'Field', english: 'English', published: 'Published', proposed: 'Proposed' },
  noTranslation: 'None',
  authorHelpFile: 'To change what you sent, withdraw this change and import the corrected file.',
  actionsTitle: 'Decision',
  moreActions: 'More actions',
  noActions: 'Nothing to decide here now.',
  authorHelp: 'To change what you sent, edit the record again: your new save replaces this change and waits for review again.',
  openRecord: 'Open the record',
  commentOptional: 'Comment (optional)',
  confirmApprove: 'Approve and publish now',
  confirmApproveNext: 'Approve and go to next',
  confirmSchedule: 'Approve and schedule',
  confirmReject: 'Send back',
  confirmBreakGlass: 'Publish now without review',
  confirmWithdraw: 'Withdraw the change',
  withdrawText: 'The change is taken back. The farmer app keeps the published version.',
  breakGlassHelp:
    `Only for an urgent fix: the change reaches the farmer app now, without a second person's review. ` +
    `Your reason (at least ${REVIEW_LIMITS.minReasonLength} characters) is kept with the change and in ` +
    `History.`,
  dangerZone: 'Urgent fix',
  scheduleHelp: 'The change is approved now and reaches the farmer app at this time.',
  cancel: 'Cancel',
  working: 'Working...',
  rebaseHelp:
    'The published record changed after this change was made. Bring it up to date: it keeps what it proposes, is ' +
    'compared with the record as published now, and waits for review again.',
  done: {
    approve: 'Approved and published.',
    approveNext: (name: string) => `Approved and published. Next waiting for you: ${name}.`,
    noneLeft: 'Approved and published. Nothing else is waiting for your review.',
    schedule: 'Approved. It publishes at the time you chose.',
    reject: 'Sent back to its author.',
    publish: 'Published.',
    withdraw: 'The change was withdrawn.',
    rebase: 'Brought up to date: it waits for review again.',
    unschedule: 'The scheduled publish was cancelled. The change stays approved.',
  },
  breakGlassNote: (name: string, when: string, reason: string) => `Published without review by ${name}, ${when}. Reason: ${reason}`,
  settingsTitle: 'Review before publishing',
  settingsIntro: "Per collection: whether a save reaches the farmer app at once or waits for a second person's approval.",
  settingChanged: (name: string, when: string) => `Last changed by ${name}, ${when}`,
  /** How long the "sent for review" notice stays (it is read, not glanced at). */
  toastMs: 6000,
} as const;

/**
 * The farmer app's own words on its detail screens (PalaYan_App, res/layout/
 * activity_disease_details.xml, activity_pest_details.xml, activity_rice_variety_information.xml
 * and dialog_all_image_rice_disease.xml), as the app shows them: 'Symtomps' is its spelling.
 */
export const APP_PREVIEW = {
  back: 'Back',
  diseaseName: 'Disease Name:',
  pestName: 'Pest Name:',
  localName: 'Local Name:',
  scientificName: 'Scientific Name:',
  affectedParts: 'Affected Parts:',
  description: 'Description',
  symptoms: 'Symtomps',
  cause: 'Cause',
  treatments: 'Treatments',
  noData: 'No data available',
  noDataBullet: 'No data available.',
  allImages: 'All Images',
  yieldData: 'Datus ng Ani',
  averageYield: ['tonelada', 'Karaniwang Ani', 'Average na ani'],
  maxYield: ['tonelada', 'Pinakamataas na Ani', 'Maximum Potential'],
  growth: 'Impormasyon sa Paglaki',
  maturityDays: ['araw', 'Bilang ng Araw', 'Bago Anihan'],
  plantHeight: ['cm', 'Taas ng Palay', 'Average height'],
  tillers: ['sanga', 'Dami ng Sanga', 'Per halaman'],
  recommended: 'Nirerekomendang Lugar at Panahon',
  location: 'Lugar:',
  environment: 'Uri ng Sakahan:',
  season: 'Panahon ng Pagtatanim:',
  plantingMethod: 'Paraan ng Pagtatanim:',
  /** The console's words around the phones. */
  phone: (side: string) => `${side}: the farmer app's screen`,
  changed: 'Changed',
  photoStrip: (shown: number, total: number) =>
    shown < total ? `${shown} of ${total} photos` : `${total} ${total === 1 ? 'photo' : 'photos'}`,
} as const;
