import type { ReactNode } from 'react';
import type { VarietyEnums } from '../../../common/schemas/maintenance';
import { VARIETIES, VARIETY_LABELS } from '../../../common/varieties';
import { CheckboxField, CheckboxGroupField, SelectField, type ChoiceOption } from '../../components/ui/choice-fields';
import { TextField } from '../../components/ui/form';

/** The variety form's fields, in its three sections. */
export function VarietyFields({
  years,
  options,
  optionsLoading,
  missingHint,
  nameHint,
}: {
  years: ChoiceOption[];
  options: VarietyEnums | undefined;
  optionsLoading: boolean;
  /** The note under a field the record lacks (an edit may leave it empty). */
  missingHint(field: string): ReactNode;
  /** Under the name: another record has it. */
  nameHint: ReactNode;
}) {
  const f = VARIETIES.form;
  const L = VARIETY_LABELS;
  const asOptions = (list: string[] | undefined): ChoiceOption[] => (list ?? []).map((value) => ({ value }));
  const enums = options;
  return (
    <>
      <Section title={f.sections.identity}>
        <TextField name="varietyName" label={L.varietyName} autoComplete="off" hint={nameHint} />
        <TextField name="releaseName" label={L.releaseName} autoComplete="off" hint={missingHint('releaseName')} />
        <SelectField
          name="yearRelease"
          label={L.yearRelease}
          options={years}
          placeholder={optionsLoading ? f.loadingOptions : f.selectYear}
          disabled={optionsLoading}
          staleSuffix={f.yearNotListed}
        />
        <TextField name="breedingCode" label={L.breedingCode} autoComplete="off" hint={missingHint('breedingCode')} />
        <TextField name="breederOrigin" label={L.breederOrigin} autoComplete="off" hint={missingHint('breederOrigin')} />
      </Section>
      <Section title={f.sections.agronomic}>
        <TextField name="maturityDays" label={L.maturityDays} inputMode="numeric" autoComplete="off" hint={missingHint('maturityDays')} />
        <TextField
          name="plantHeight"
          label={`${L.plantHeight} (${VARIETIES.units.height})`}
          inputMode="numeric"
          autoComplete="off"
          hint={missingHint('plantHeight')}
        />
        <TextField
          name="averageYield"
          label={`${L.averageYield} (${VARIETIES.units.yield})`}
          inputMode="decimal"
          autoComplete="off"
          hint={missingHint('averageYield')}
        />
        <TextField
          name="maxYield"
          label={`${L.maxYield} (${VARIETIES.units.yield})`}
          inputMode="decimal"
          autoComplete="off"
          hint={missingHint('maxYield')}
        />
        <TextField name="tillers" label={L.tillers} inputMode="numeric" autoComplete="off" hint={missingHint('tillers')} />
        <SelectField
          name="plantingMethod"
          label={L.plantingMethod}
          options={asOptions(enums?.plantingMethods)}
          placeholder={optionsLoading ? f.loadingOptions : f.selectPlantingMethod}
          disabled={optionsLoading}
          staleSuffix={f.removedOption}
        />
        <CheckboxGroupField
          name="season"
          label={L.season}
          options={asOptions(enums?.seasons)}
          disabled={optionsLoading}
          staleSuffix={f.removedOption}
          className="sm:col-span-2"
        />
        <CheckboxGroupField
          name="environment"
          label={L.environment}
          options={asOptions(enums?.environments)}
          disabled={optionsLoading}
          staleSuffix={f.removedOption}
          className="sm:col-span-2"
        />
      </Section>
      <Section title={f.sections.recommendation}>
        <TextField
          name="location"
          label={L.location}
          autoComplete="off"
          placeholder="e.g. Province-wide, Camiling"
          hint={missingHint('location')}
        />
        <CheckboxField name="recommendedInTarlac" label={L.recommendedInTarlac} hint={f.recommendedHint} className="self-end pb-2" />
      </Section>
    </>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-label={title}>
      <h3 className="mb-3 border-b border-slate-100 pb-1 text-sm font-semibold uppercase tracking-wide text-brand-800">{title}</h3>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">{children}</div>
    </section>
  );
}
