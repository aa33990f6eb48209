import { X } from 'lucide-react';
import { VARIETY_SORTS, defaultSortDir, type VarietySort } from '../../../common/schemas/varieties';
import { VARIETIES, VARIETY_LABELS } from '../../../common/varieties';
import { Button } from '../../components/ui/button';
import { FilterPanel, FilterSelect } from '../../components/ui/filter-panel';
import { useOptionLists } from '../../lib/option-lists';
import { varietyListsOf, type VarietyListParams } from './api';
import { activeFilterCount } from './list-query';

const L = VARIETIES.list;

/**
 * The varieties list's sort and filters: Recommended in Tarlac, season, environment and year
 * from the option lists, needs completing. Each change is a new address (list-query.ts).
 */
export function VarietyListFilters({ query, onChange }: { query: VarietyListParams; onChange(patch: Partial<VarietyListParams>): void }) {
  const lists = useOptionLists(varietyListsOf);
  const enums = lists.data;
  const sort = query.sort ?? 'added';
  const dir = query.dir ?? defaultSortDir(sort);
  const active = activeFilterCount(query);
  // A value set in the address that the lists no longer hold stays choosable (it is what is shown).
  const withCurrent = (values: readonly string[] | undefined, current: string | undefined) =>
    current && !(values ?? []).includes(current) ? [current, ...(values ?? [])] : [...(values ?? [])];
  return (
    <FilterPanel active={active}>
      <FilterSelect
        id="varieties-tarlac"
        label={VARIETY_LABELS.recommendedInTarlac}
        value={query.tarlac ?? ''}
        onChange={(v) => onChange({ tarlac: (v || undefined) as VarietyListParams['tarlac'] })}
      >
        <option value="">{L.any}</option>
        <option value="yes">{L.tarlacYes}</option>
        <option value="no">{L.tarlacNo}</option>
      </FilterSelect>
      <FilterSelect
        id="varieties-season"
        label={VARIETY_LABELS.season}
        value={query.season ?? ''}
        onChange={(v) => onChange({ season: v || undefined })}
      >
        <option value="">{L.any}</option>
        {withCurrent(enums?.seasons, query.season).map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </FilterSelect>
      <FilterSelect
        id="varieties-environment"
        label={VARIETY_LABELS.environment}
        value={query.environment ?? ''}
        onChange={(v) => onChange({ environment: v || undefined })}
      >
        <option value="">{L.any}</option>
        {withCurrent(enums?.environments, query.environment).map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </FilterSelect>
      <FilterSelect
        id="varieties-year"
        label={VARIETY_LABELS.yearRelease}
        value={query.year ?? ''}
        onChange={(v) => onChange({ year: v || undefined })}
      >
        <option value="">{L.any}</option>
        {withCurrent(
          [...(enums?.yearReleases ?? [])].sort((a, b) => b.localeCompare(a)),
          query.year,
        ).map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </FilterSelect>
      <label className="flex h-10 items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600"
          checked={query.missing === 'yes'}
          onChange={(e) => onChange({ missing: e.target.checked ? 'yes' : undefined })}
        />
        {L.missingOnly}
      </label>
      <div className="flex flex-1 flex-wrap items-end gap-3 sm:justify-end">
        <FilterSelect
          id="varieties-sort"
          label={L.sortBy}
          value={sort}
          onChange={(v) => onChange({ sort: v as VarietySort, dir: defaultSortDir(v as VarietySort) })}
        >
          {VARIETY_SORTS.map((s) => (
            <option key={s} value={s}>
              {L.sorts[s]}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect id="varieties-dir" label={L.order} value={dir} onChange={(v) => onChange({ sort, dir: v as 'asc' | 'desc' })}>
          <option value="asc">{L.dirs.asc}</option>
          <option value="desc">{L.dirs.desc}</option>
        </FilterSelect>
        {active > 0 && (
          <Button
            variant="ghost"
            onClick={() => onChange({ tarlac: undefined, season: undefined, environment: undefined, year: undefined, missing: undefined })}
          >
            <X className="h-4 w-4" aria-hidden />
            {L.clear}
          </Button>
        )}
      </div>
    </FilterPanel>
  );
}
