import type {
  AccountsTable,
  LoginChallengesTable,
  PasswordResetTokensTable,
  RecoveryFlowsTable,
  SecondFactorRecoveryCodesTable,
  SecondFactorsTable,
  SessionsTable,
  SigningKeysTable,
  StagedAvatarsTable,
  ThrottlesTable,
} from './types/accounts.js';
import type {
  AuditChainLinksTable,
  AuditChainTable,
  AuditLogsTable,
  AuditPendingTable,
  AuditVerificationsTable,
  BackupRunsTable,
} from './types/audit.js';
import type { PeriodSlotsTable } from './types/background.js';
import type { CatalogCollection } from '../../common/catalog.js';
import type {
  CatalogDraftPhotosTable,
  CatalogDraftsTable,
  CatalogImagesTable,
  CatalogTable,
  ImportRecordsTable,
  MaintenanceTable,
  RecordVersionsTable,
  VarietiesTable,
  VarietySearchGramsTable,
} from './types/content.js';
import type {
  EvaluationSetPhotosTable,
  EvaluationSetsTable,
  ModelEvaluationsTable,
  ModelPredictionsTable,
  ModelPublicationsTable,
  ScannerModelsTable,
} from './types/models.js';
import type { CacheStampNotesTable, CacheStampsTable, LanguagesTable, TranslationsTable } from './types/languages.js';
import type { PendingChangesTable, ReviewPhotoHoldsTable, ReviewSettingsTable } from './types/review.js';
import type { ScanReportCountsTable, ScanReportModelsTable, ScanReportsTable, ScanReportWeeklyTable } from './types/scan-reports.js';

/**
 * The one Database interface every query is typed from. Field names follow docs/PRODUCT.md section 3;
 * the tables' rows are in types/, by area (types/portable.ts: how values are stored).
 */
/** The catalog's tables, one per kind (common/catalog.ts), all of one shape. */
type CatalogTables = Record<CatalogCollection, CatalogTable>;

export interface Database extends CatalogTables {
  accounts: AccountsTable;
  backup_runs: BackupRunsTable;
  period_slots: PeriodSlotsTable;
  staged_avatars: StagedAvatarsTable;
  sessions: SessionsTable;
  import_records: ImportRecordsTable;
  rice_seed_varieties: VarietiesTable;
  variety_search_grams: VarietySearchGramsTable;
  catalog_images: CatalogImagesTable;
  catalog_drafts: CatalogDraftsTable;
  catalog_draft_photos: CatalogDraftPhotosTable;
  audit_logs: AuditLogsTable;
  audit_chain: AuditChainTable;
  audit_chain_links: AuditChainLinksTable;
  audit_pending: AuditPendingTable;
  audit_verifications: AuditVerificationsTable;
  maintenance: MaintenanceTable;
  record_versions: RecordVersionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  recovery_flows: RecoveryFlowsTable;
  throttles: ThrottlesTable;
  scan_reports: ScanReportsTable;
  scan_report_counts: ScanReportCountsTable;
  scan_report_weekly: ScanReportWeeklyTable;
  scan_report_models: ScanReportModelsTable;
  second_factors: SecondFactorsTable;
  second_factor_recovery_codes: SecondFactorRecoveryCodesTable;
  login_challenges: LoginChallengesTable;
  signing_keys: SigningKeysTable;
  scanner_models: ScannerModelsTable;
  evaluation_sets: EvaluationSetsTable;
  evaluation_set_photos: EvaluationSetPhotosTable;
  model_evaluations: ModelEvaluationsTable;
  model_predictions: ModelPredictionsTable;
  model_publications: ModelPublicationsTable;
  review_settings: ReviewSettingsTable;
  pending_changes: PendingChangesTable;
  review_photo_holds: ReviewPhotoHoldsTable;
  languages: LanguagesTable;
  translations: TranslationsTable;
  cache_stamps: CacheStampsTable;
  cache_stamp_notes: CacheStampNotesTable;
}
