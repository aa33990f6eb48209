import { defaultSortDir, varietyListQuerySchema, type VarietySort } from '../../../common/schemas/varieties';
import type { VarietyListParams } from './api';

/** The list's filters, as the address and the API name them. */
export const VARIETY_FILTER_KEYS = ['tarlac', 'season', 'environment', 'year', 'missing'] as const;

const shape = varietyListQuerySchema.shape;

/**
 * The list as the address holds it (`q`, `page`, `sort`, `dir` and the filters): a value the
 * server would refuse is left out, so an edited address shows the list rather than an error.
 */
export function readListQuery(params: URLSearchParams): VarietyListParams {
  const query: VarietyListParams = {
    search: params.get('q') ?? '',
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
  };
  const sort = shape.sort.safeParse(params.get('sort') ?? undefined);
  if (sort.success && sort.data !== 'added') query.sort = sort.data;
  const dir = shape.dir.safeParse(params.get('dir') ?? undefined);
  if (dir.success && dir.data && dir.data !== defaultSortDir(query.sort ?? 'added')) query.dir = dir.data;
  for (const key of VARIETY_FILTER_KEYS) {
    const parsed = shape[key].safeParse(params.get(key) ?? undefined);
    if (parsed.success && parsed.data !== undefined) (query as Record<string, unknown>)[key] = parsed.data;
  }
  return query;
}

/** The address of the list `query` describes (defaults left out); another filter or sort starts at page 1. */
export function listQueryParams(query: VarietyListParams): URLSearchParams {
  const params = new URLSearchParams();
  if (query.search) params.set('q', query.search);
  if (query.sort && query.sort !== 'added') params.set('sort', query.sort);
  if (query.dir && query.dir !== defaultSortDir(query.sort ?? 'added')) params.set('dir', query.dir);
  for (const key of VARIETY_FILTER_KEYS) if (query[key] !== undefined) params.set(key, query[key]);
  if (query.page > 1) params.set('page', String(query.page));
  return params;
}

/** A column heading's click: by that column ascending, or the other way when it already sorts the list. */
export function sortedBy(query: VarietyListParams, sort: VarietySort): Pick<VarietyListParams, 'sort' | 'dir'> {
  const current = query.sort ?? 'added';
  const dir = query.dir ?? defaultSortDir(current);
  if (current !== sort) return { sort, dir: defaultSortDir(sort) };
  return { sort, dir: dir === 'asc' ? 'desc' : 'asc' };
}

export const activeFilterCount = (query: VarietyListParams) => VARIETY_FILTER_KEYS.filter((k) => query[k] !== undefined).length;
