import { ACCOUNTS, accountDisplayStatus } from '../../../../common/accounts.js';
import { csvTimestamp } from '../../../../common/history-csv.js';
import { normalizeRole } from '../../../../common/permissions.js';
import { EXPORT_TEXTS, type SpreadsheetFormat } from '../../../../common/spreadsheets.js';
import { SHELL } from '../../../../common/texts.js';
import { SECOND_FACTOR } from '../../../../common/second-factor.js';
import type { AppContext } from '../../../platform/http/context.js';
import { listBatches, type SheetColumn, type SheetExport } from '../../../platform/spreadsheets/sheet-writer.js';
import { accountsRepository, type AccountListRow } from './repository.js';

const BATCH = 500;
const C = ACCOUNTS.columns;

/**
 * What the Accounts list shows, as named columns: never a secret (hash, answers, keys, sessions)
 * and no contact number (personal data the list does not need).
 */
const COLUMNS: ReadonlyArray<SheetColumn<AccountListRow>> = [
  { header: C.fullname, value: (a) => a.fullname, width: 26 },
  { header: C.username, value: (a) => a.username, width: 18 },
  { header: C.email, value: (a) => a.email, width: 28 },
  { header: C.role, value: (a) => SHELL.roleLabel[normalizeRole(a.role)], width: 14 },
  { header: C.status, value: (a) => ACCOUNTS.status[accountDisplayStatus(a)], width: 12 },
  { header: SECOND_FACTOR.section, value: (a) => (a.hasSecondFactor ? EXPORT_TEXTS.yes : EXPORT_TEXTS.no), width: 16 },
  { header: C.lastLogin, value: (a) => (a.lastLogin ? csvTimestamp(a.lastLogin) : null), width: 20 },
  { header: C.createdAt, value: (a) => csvTimestamp(a.createdAt), width: 20 },
];

/** The live accounts the list shows for this search, in its order. */
export function accountsSheet(ctx: AppContext, format: SpreadsheetFormat, search: string): SheetExport<AccountListRow> {
  return {
    format,
    name: 'admin-accounts',
    columns: COLUMNS,
    batches: listBatches((after, limit) => accountsRepository.exportBatch(ctx.db, search, after, limit), BATCH),
  };
}
