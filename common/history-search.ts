/** Lower case without accents, as the full-text index folds them (ñ matches n). */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Splits free text into the words the full-text index knows (letters and digits, folded). */
export function searchTerms(text: string): string[] {
  return (foldText(text).match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12);
}

/**
 * The search rule: every word of the query begins a word of the entry's user, document
 * name or description. The server's full-text index and this check agree on it.
 */
export function matchesTerms(terms: readonly string[], fields: ReadonlyArray<string | null | undefined>): boolean {
  if (terms.length === 0) return true;
  const words = foldText(fields.filter(Boolean).join(' ')).match(/[\p{L}\p{N}]+/gu) ?? [];
  return terms.every((t) => words.some((w) => w.startsWith(t)));
}
