import { LANGUAGE_TEXTS as L, type TranslatedListDoc } from '../../../common/languages';
import { MAINTENANCE } from '../../../common/maintenance';
import { can } from '../../../common/permissions';
import { DISEASE_ENUMS_ID, VARIETY_ENUMS_ID } from '../../../common/schemas/maintenance';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { TranslationEditor } from '../../components/translations/translation-editor';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { useSession } from '../../lib/session';

const T = TRANSLATE_TEXTS.languages;

/** The option-list documents whose values reach the farmer app, with their File Maintenance titles. */
export const TRANSLATED_DOCS: Array<{ doc: TranslatedListDoc; title: string }> = [
  { doc: VARIETY_ENUMS_ID, title: MAINTENANCE.tiles.riceVariety.label },
  { doc: DISEASE_ENUMS_ID, title: MAINTENANCE.tiles.disease.label },
];

/** The option values of one document in the translation editor (File Maintenance's own: super admins). */
export function OptionValuesDialog({ doc, title, onClose }: { doc: TranslatedListDoc | null; title: string; onClose(): void }) {
  const { session } = useSession();
  return (
    <Dialog
      open={doc !== null}
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title={T.translateList(title)}
      description={L.subtitle}
      size="xl"
      footer={
        <Button variant="secondary" onClick={onClose}>
          {T.close}
        </Button>
      }
    >
      {doc && <TranslationEditor collection="maintenance" recordId={doc} canEdit={can(session?.user.role, 'maintenance.manage')} />}
    </Dialog>
  );
}
