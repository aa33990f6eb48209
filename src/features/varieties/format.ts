import { manilaDateTime } from '../../../common/manila-time';
import { VARIETIES } from '../../../common/varieties';

/** An empty value shows as a dash (docs/PRODUCT.md section 2). */
export function orDash(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return VARIETIES.dash;
  const text = String(value).trim();
  return text === '' ? VARIETIES.dash : text;
}

export function withUnit(value: number | null | undefined, unit: string): string {
  return value === null || value === undefined ? VARIETIES.dash : `${value} ${unit}`;
}

export function listOrDash(values: string[] | null | undefined): string {
  return values && values.length > 0 ? values.join(', ') : VARIETIES.dash;
}

export function dateTimeOrDash(iso: string | null | undefined): string {
  if (!iso) return VARIETIES.dash;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return VARIETIES.dash;
  return manilaDateTime(t);
}
