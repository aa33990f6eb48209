/** Review before publishing (migrations 197 and 202). */
export interface ReviewSettingsTable {
  collection: string;
  enabled: number;
  updatedAt: string;
  updatedBy: string | null;
}

export interface PendingChangesTable {
  id: string;
  collection: string;
  action: string;
  recordId: string | null;
  recordName: string;
  baseVersion: number | null;
  /** JSON: the proposal's input, given back to the collection's adapter when published. */
  input: string;
  /** JSON: what the queue shows of a large proposal (an import's counts), or null. */
  summary: string | null;
  state: string;
  /** Counts resubmissions and state changes: a reviewer acts on the version they read. */
  version: number;
  authorId: string;
  authorRole: string;
  createdAt: string;
  submittedAt: string;
  reviewerId: string | null;
  reviewedAt: string | null;
  comment: string | null;
  scheduledAt: string | null;
  scheduledBy: string | null;
  publishedAt: string | null;
  publishedBy: string | null;
  breakGlassReason: string | null;
  publishError: string | null;
  /**
   * JSON (migration 202): the decision, its time, and the published and proposed states the
   * reviewer saw when the change was approved, sent back or published without review; null
   * until then, and again after a resubmission or a rebase.
   */
  decided: string | null;
}

export interface ReviewPhotoHoldsTable {
  changeId: string;
  imageId: string;
}
