export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Above this many token pairs the texts are shown as removed then added, whole (the table would be too large). */
const MAX_CELLS = 250_000;

/** Words and the spaces between them, so the parts put back together are the texts exactly. */
function tokens(text: string): string[] {
  return text.match(/\s+|[^\s]+/g) ?? [];
}

function push(parts: DiffPart[], kind: DiffPart['kind'], text: string): void {
  const last = parts[parts.length - 1];
  if (last?.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

/**
 * A word diff of `before` → `after` (longest common subsequence of words and spaces): the
 * parts in order, each the same in both, only in `before` (removed) or only in `after`
 * (added). Joining the same and removed parts gives `before`; the same and added, `after`.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  // Common start and end first: an edit usually touches a few words of a long text.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const parts: DiffPart[] = [];
  if (start > 0) push(parts, 'same', a.slice(0, start).join(''));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length > MAX_CELLS) {
    if (midA.length > 0) push(parts, 'removed', midA.join(''));
    if (midB.length > 0) push(parts, 'added', midB.join(''));
  } else {
    // lengths[i][j]: the longest common subsequence of midA[i..] and midB[j..].
    const width = midB.length + 1;
    const lengths = new Uint32Array((midA.length + 1) * width);
    for (let i = midA.length - 1; i >= 0; i -= 1) {
      for (let j = midB.length - 1; j >= 0; j -= 1) {
        lengths[i * width + j] =
          midA[i] === midB[j]
            ? lengths[(i + 1) * width + j + 1]! + 1
            : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < midA.length && j < midB.length) {
      if (midA[i] === midB[j]) {
        push(parts, 'same', midA[i]!);
        i += 1;
        j += 1;
      } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
        push(parts, 'removed', midA[i]!);
        i += 1;
      } else {
        push(parts, 'added', midB[j]!);
        j += 1;
      }
    }
    if (i < midA.length) push(parts, 'removed', midA.slice(i).join(''));
    if (j < midB.length) push(parts, 'added', midB.slice(j).join(''));
  }
  if (endA < a.length) push(parts, 'same', a.slice(endA).join(''));
  return tidy(parts);
}

/**
 * A change that both removes and adds words reads as one replacement: the spaces between its
 * parts join both sides ("Oval" → "Oval, grey-green", not "Oval" → "Oval," · "grey-green").
 */
function tidy(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let i = 0;
  while (i < parts.length) {
    if (parts[i]!.kind === 'same') {
      push(out, 'same', parts[i]!.text);
      i += 1;
      continue;
    }
    // The run: changes, and spaces with a change on each side.
    let end = i;
    while (
      end + 1 < parts.length &&
      (parts[end + 1]!.kind !== 'same' || (/^\s+$/.test(parts[end + 1]!.text) && parts[end + 2] && parts[end + 2]!.kind !== 'same'))
    )
      end += 1;
    const run = parts.slice(i, end + 1);
    i = end + 1;
    if (!run.some((p) => p.kind === 'removed') || !run.some((p) => p.kind === 'added')) {
      for (const p of run) push(out, p.kind, p.text);
      continue;
    }
    let removed = run
      .filter((p) => p.kind !== 'added')
      .map((p) => p.text)
      .join('');
    let added = run
      .filter((p) => p.kind !== 'removed')
      .map((p) => p.text)
      .join('');
    const space = /\s+$/.exec(removed)?.[0] ?? '';
    const tail = space && added.endsWith(space) ? space : '';
    if (tail) {
      removed = removed.slice(0, -tail.length);
      added = added.slice(0, -tail.length);
    }
    push(out, 'removed', removed);
    push(out, 'added', added);
    if (tail) push(out, 'same', tail);
  }
  return out;
}
