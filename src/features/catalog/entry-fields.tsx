import type { CatalogKind } from '../../../common/catalog';
import { CATALOG_LABELS } from '../../../common/catalog-texts';
import { can } from '../../../common/permissions';
import type { CatalogEntryDetail } from '../../../common/schemas/catalog';
import { CheckboxField, CheckboxGroupField } from '../../components/ui/choice-fields';
import { TextField } from '../../components/ui/form';
import { TextAreaField } from '../../components/ui/more-fields';
import { useOptionLists } from '../../lib/option-lists';
import { useSession } from '../../lib/session';
import { useNameTaken } from '../../lib/name-taken';
import { useEffect } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { affectedPartsOf } from './api';

/** The add/edit form's values: an entry's fields and the ids of the photos it keeps. */
export interface FormValues {
  name: string;
  scientificName: string;
  localName: string;
  affectedParts: string[];
  isTrainingClass: boolean;
  notRicePlant: boolean;
  description: string;
  cause: string;
  symptoms: string;
  treatments: string;
  imageIds: string[];
  /** Set when the user confirmed saving a name another entry has. */
  allowDuplicateName?: boolean;
}

export function toFormValues(entry: CatalogEntryDetail | null): FormValues {
  return {
    name: entry?.name ?? '',
    scientificName: entry?.scientificName ?? '',
    localName: entry?.localName ?? '',
    affectedParts: entry?.affectedParts ?? [],
    isTrainingClass: entry?.isTrainingClass ?? false,
    notRicePlant: entry?.notRicePlant ?? false,
    description: entry?.description ?? '',
    cause: entry?.cause ?? '',
    symptoms: entry?.symptoms ?? '',
    treatments: entry?.treatments ?? '',
    imageIds: entry?.images.map((i) => i.id) ?? [],
  };
}

/** The entry's text and choice fields, in the form's order (its photos follow them). */
export function EntryFields({ kind, entryId }: { kind: CatalogKind; entryId: string | null }) {
  const { session } = useSession();
  // Another live entry of the kind with the name typed: named under the field (the save asks first).
  const taken = useNameTaken<{ id: string; name: string }>(
    kind.collection,
    `/api/${kind.route}/name-taken`,
    String(useWatch({ name: 'name' }) ?? ''),
    entryId,
  );
  const superAdmin = can(session?.user.role, 'trainingData.export');
  const parts = useOptionLists(affectedPartsOf, kind.affectedParts);
  const training = useWatch({ name: 'isTrainingClass' }) === true;
  const { setValue, getValues } = useFormContext();
  // "Not a rice plant" is a kind of training class: unticking the one unticks the other.
  useEffect(() => {
    if (!training && getValues('notRicePlant') === true) setValue('notRicePlant', false, { shouldDirty: true });
  }, [training, getValues, setValue]);
  return (
    <>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          name="name"
          label={CATALOG_LABELS.name}
          autoComplete="off"
          hint={
            taken && (
              <p className="mt-1 text-xs text-amber-800" role="status">
                {CATALOG_LABELS.duplicateName(kind.texts.noun, taken.name)}
              </p>
            )
          }
        />
        <TextField name="scientificName" label={CATALOG_LABELS.scientificName} autoComplete="off" className="[&_input]:italic" />
        <TextField
          name="localName"
          label={CATALOG_LABELS.localName}
          hint={<p className="mt-1 text-xs text-slate-500">{CATALOG_LABELS.localNameHint}</p>}
          autoComplete="off"
          className="sm:col-span-2"
        />
      </div>
      {kind.affectedParts && (
        <div>
          <CheckboxGroupField
            name="affectedParts"
            label={CATALOG_LABELS.affectedParts}
            options={(parts.data ?? []).map((value) => ({ value }))}
            disabled={parts.isLoading}
            staleSuffix={CATALOG_LABELS.removedOption}
          />
          <p className="mt-1 text-xs text-slate-500">{CATALOG_LABELS.affectedPartsHint}</p>
        </div>
      )}
      {kind.trainingClasses && superAdmin && (
        <div className="space-y-2">
          <CheckboxField name="isTrainingClass" label={CATALOG_LABELS.trainingClass} hint={CATALOG_LABELS.trainingClassHint} />
          {training && (
            <div className="ml-6">
              <CheckboxField name="notRicePlant" label={CATALOG_LABELS.notRicePlant} hint={CATALOG_LABELS.notRicePlantHint} />
            </div>
          )}
        </div>
      )}
      <TextAreaField name="description" label={CATALOG_LABELS.description} rows={4} grow />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextAreaField name="cause" label={CATALOG_LABELS.cause} rows={4} grow />
        <TextAreaField name="symptoms" label={CATALOG_LABELS.symptoms} rows={4} grow />
      </div>
      <TextAreaField name="treatments" label={CATALOG_LABELS.treatments} rows={4} grow />
    </>
  );
}
