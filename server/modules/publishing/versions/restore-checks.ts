import { VERSION_TEXTS, type VersionCollection } from '../../../../common/versions.js';
import { fail } from '../../../platform/http/errors.js';
import type { RestoreRequest } from './adapters.js';
import { fieldKeys } from './service.js';

type Errors = Record<string, string>;

/** The first message of each field a schema refused. */
export function issuesByField(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Errors {
  const out: Errors = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? 'form');
    out[key] ??= issue.message;
  }
  return out;
}

/** Refused with the fields to fix and, for option fields, the values the user may choose instead. */
export function refuse(errors: Errors, choices: Record<string, string[]>): never {
  const first = Object.values(errors)[0] ?? VERSION_TEXTS.chooseCurrent;
  fail('VALIDATION_FAILED', first, errors, { choices });
}

/** Text fields a snapshot holds as null, as the form sends them: empty. */
export function withEmptyText(values: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return { ...values, ...Object.fromEntries(keys.map((key) => [key, values[key] ?? ''])) };
}

/** Values no longer in their option list. */
export const optionGone = (values: ReadonlyArray<unknown>, allowed: readonly string[]) =>
  values.map(String).filter((v) => !allowed.includes(v));

/** The version's field values, with the request's replacements for fields the record has. */
export function candidate(
  collection: VersionCollection,
  request: Pick<RestoreRequest, 'id' | 'snapshot' | 'input'>,
): Record<string, unknown> {
  const keys = new Set(fieldKeys(collection, request.id));
  const values: Record<string, unknown> = { ...request.snapshot.fields };
  for (const [key, value] of Object.entries(request.input.replacements)) if (keys.has(key)) values[key] = value;
  return values;
}
