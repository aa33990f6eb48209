/** Once-per-period work (migration 199): the last period each job's run was taken for. */
export interface PeriodSlotsTable {
  job: string;
  holder: string;
  /** ISO start of the period taken: a job's run is taken again only for a later one. */
  periodStart: string;
  takenAt: string;
}
