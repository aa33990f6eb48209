import { PHOTO_ORDER_TEXTS } from './catalog-texts.js';
import type { VersionCollection } from './versions.js';
import { VERSION_COLLECTIONS } from './versions.js';

/**
 * Review before publishing: per collection, a save can wait as a pending change until a second
 * account approves it (server/modules/publishing/review). Collections with a "Changes need review" setting.
 */
export const REVIEW_COLLECTIONS = VERSION_COLLECTIONS;
export type ReviewCollection = VersionCollection;

/**
 * What a pending change does once published. create, update and delete are the record's own
 * saves; restore puts a deleted record back from the trash; version_restore saves an earlier
 * version again; import is a whole spreadsheet import; save is an option-list document's lists;
 * translate is a record's translations in one language; translate_file is a translators' file's
 * changes to one collection.
 */
export const REVIEW_ACTIONS = [
  'create',
  'update',
  'delete',
  'restore',
  'version_restore',
  'import',
  'save',
  'translate',
  'translate_file',
  'remove_photo',
  'put_back_photo',
  'move_photo',
] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** Changes of many records from a file: reviewed by their rows, with no single record to compare or preview. */
export const FILE_REVIEW_ACTIONS = ['import', 'translate_file'] as const satisfies readonly ReviewAction[];
export const isFileAction = (action: string) => (FILE_REVIEW_ACTIONS as readonly string[]).includes(action);

/**
 * pending: waiting for a reviewer. approved: a reviewer agreed; published at once or at its
 * scheduled time. rejected: back with the author, who may edit and resubmit. published: the
 * farmer app has it. withdrawn: taken back by its author. failed: its scheduled publish was
 * refused (the record changed since); the author may rebase it.
 */
export const REVIEW_STATES = ['pending', 'approved', 'rejected', 'published', 'withdrawn', 'failed'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
/** States in which a change still holds its record: a second change to it is refused. */
export const OPEN_REVIEW_STATES = ['pending', 'approved', 'rejected', 'failed'] as const satisfies readonly ReviewState[];

/**
 * How a decided change was decided, kept with the states it was decided on: approved (then
 * published now or at its time), sent back to its author, or published without review.
 */
export const REVIEW_DECISIONS = ['approved', 'rejected', 'publishedWithoutReview'] as const;
export type ReviewDecisionKind = (typeof REVIEW_DECISIONS)[number];

export const REVIEW_LIMITS = {
  pageSize: 25,
  maxCommentLength: 2000,
  /** A break-glass publish's written reason. */
  minReasonLength: 10,
  maxReasonLength: 1000,
  /** How often each instance looks for scheduled publishes that are due (REVIEW_SCHEDULE_CHECK_SECONDS). */
  scheduleCheckMs: 15_000,
  /** A scheduled time may be at most this far ahead. */
  maxScheduleDays: 365,
  /** An import's or a translators' file's rows a change's page shows (its summary counts them all). */
  importRowsShown: 200,
} as const;

export const REVIEW_TEXTS = {
  title: 'Review',
  setting: 'Changes need review before the farmer app sees them',
  settingHelp: 'Saves wait as pending changes until another account approves them. The farmer app keeps the published state until then.',
  settingOn: (label: string) => `${label}: changes now need review before the farmer app sees them.`,
  settingOff: (label: string) => `${label}: changes reach the farmer app when saved.`,
  badge: 'Waiting for review',
  badgeRejected: 'Changes requested',
  sentForReview: 'Your change was sent for review. The farmer app keeps the published version until it is approved.',
  newWaiting: (n: number) => `${n} new ${n === 1 ? 'entry is' : 'entries are'} waiting for review.`,
  actions: {
    create: 'Add',
    update: 'Edit',
    delete: 'Delete',
    restore: 'Restore from trash',
    version_restore: 'Restore a version',
    import: 'Spreadsheet import',
    save: 'Option lists',
    translate: 'Translation',
    translate_file: "Translators' file",
    remove_photo: 'Take a photo out (Dataset health)',
    put_back_photo: 'Put a photo back (Dataset health)',
    move_photo: PHOTO_ORDER_TEXTS.reviewAction,
  } satisfies Record<ReviewAction, string>,
  states: {
    pending: 'Waiting for review',
    approved: 'Approved',
    rejected: 'Changes requested',
    published: 'Published',
    withdrawn: 'Withdrawn',
    failed: 'Could not publish',
  } satisfies Record<ReviewState, string>,
  filters: {
    open: 'Open',
    pending: 'Waiting for review',
    approved: 'Approved and scheduled',
    rejected: 'Changes requested',
    published: 'Published',
    all: 'All',
    mine: 'Only my changes',
  },
  approve: 'Approve and publish',
  approveSchedule: 'Approve and publish at…',
  reject: 'Request changes',
  publishNow: 'Publish now',
  breakGlass: 'Publish without review',
  withdraw: 'Withdraw',
  rebase: 'Bring up to date with the published record',
  unschedule: 'Cancel the scheduled publish',
  comment: 'Comment',
  reason: 'Reason for publishing without review',
  publishAt: 'Publish at (Manila time)',
  empty: 'Nothing is waiting for review.',
  published: 'Published',
  proposed: 'Proposed',
  previewTitle: 'In the farmer app',
  previewNone: 'Not in the farmer app',
  errors: {
    selfApprove: 'You cannot approve your own change. Another reviewer must approve it.',
    commentRequired: 'Say what needs to change.',
    commentTooLong: `The comment may have at most ${REVIEW_LIMITS.maxCommentLength} characters.`,
    reasonRequired: `Write why this change cannot wait for review (at least ${REVIEW_LIMITS.minReasonLength} characters).`,
    reasonTooLong: `The reason may have at most ${REVIEW_LIMITS.maxReasonLength} characters.`,
    notAuthor: "Only the change's author can do this.",
    wrongState: (state: string) => `This change is ${state.toLowerCase()}: it cannot be changed that way now.`,
    moved: 'Someone changed this change since you opened it. Reload it and try again.',
    heldByOther: (name: string) =>
      `This record already has an open change, by ${name}. It must be published or withdrawn before another change is sent.`,
    baseMoved:
      'The published record changed since this change was made. Bring the change up to date with the published record, check it, and publish again.',
    scheduleInPast: 'Choose a time in the future.',
    scheduleTooFar: `Choose a time within ${REVIEW_LIMITS.maxScheduleDays} days.`,
    notFound: 'This change does not exist.',
  },
  email: {
    submittedSubject: (what: string) => `Waiting for your review: ${what}`,
    approvedSubject: (what: string) => `Approved: ${what}`,
    rejectedSubject: (what: string) => `Changes requested: ${what}`,
    failedSubject: (what: string) => `Could not publish: ${what}`,
  },
} as const;
