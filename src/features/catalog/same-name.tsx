import { useState } from 'react';
import type { CatalogKind } from '../../../common/catalog';
import { CATALOG_LABELS } from '../../../common/catalog-texts';
import { AskDialog } from '../../components/ui/ask-dialog';
import { ApiError } from '../../lib/api';
import type { FormValues } from './entry-fields';

/** The server refused the save: another live entry of the kind has the name (409 duplicate_name). */
export const isDuplicateName = (err: unknown): boolean =>
  err instanceof ApiError && err.code === 'CONFLICT' && (err.body as { reason?: string } | undefined)?.reason === 'duplicate_name';

/** "Save anyway?" after a refused name: `save` runs again with the user's confirmation. */
export function useSameNameQuestion(kind: CatalogKind, save: (values: FormValues, version: number | undefined) => void) {
  const [asked, setAsked] = useState<{ values: FormValues; version: number | undefined } | null>(null);
  const dialog = (
    <AskDialog
      open={asked !== null}
      title={CATALOG_LABELS.duplicateConfirmTitle}
      text={CATALOG_LABELS.duplicateConfirm(kind.texts.noun, asked?.values.name.trim() ?? '')}
      keepLabel={CATALOG_LABELS.cancel}
      confirmLabel={CATALOG_LABELS.duplicateSaveAnyway}
      onKeep={() => setAsked(null)}
      onConfirm={() => {
        if (!asked) return;
        setAsked(null);
        save({ ...asked.values, allowDuplicateName: true }, asked.version);
      }}
    />
  );
  return { ask: (values: FormValues, version: number | undefined) => setAsked({ values, version }), dialog };
}
