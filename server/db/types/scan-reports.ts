/* The farmer app's scan reports and their daily and weekly counts. */

/** A farmer app's report of one scan (migration 150): no photo, no person. */
export interface ScanReportsTable {
  id: string;
  label: string;
  diseaseId: string | null;
  confidence: number;
  modelVersion: string;
  scannedAt: string;
  receivedAt: string;
  municipality: string | null;
  barangay: string | null;
  installId: string;
}

/** Reports per Manila day, disease and municipality ('' when not given) (migration 150). */
export interface ScanReportCountsTable {
  day: string;
  diseaseId: string;
  municipality: string;
  reports: number;
}

/** Reports per Manila week (its Monday), disease and municipality (migration 150). */
export interface ScanReportWeeklyTable {
  week: string;
  diseaseId: string;
  municipality: string;
  reports: number;
}

/** Reports per Manila day, model version and disease (migration 196). */
export interface ScanReportModelsTable {
  day: string;
  modelVersion: string;
  diseaseId: string;
  reports: number;
}
