import { Fragment } from 'react';
import { wordDiff } from '../../lib/word-diff';

/** What a screen reader says before a changed part (the marks are not colour alone: <del> and <ins>, and these words). */
export interface WordChangeLabels {
  added: string;
  removed: string;
}

/** A changed part's spaces at either end stay outside its mark (a marked space at a line's end reads as a stray box). */
function trimmed(text: string): [lead: string, core: string, trail: string] {
  const lead = /^\s*/.exec(text)![0];
  const rest = text.slice(lead.length);
  const trail = /\s*$/.exec(rest)![0];
  return [lead, rest.slice(0, rest.length - trail.length), trail];
}

/**
 * `before` → `after` word by word (lib/word-diff): removed words in <del> (red, struck through),
 * added words in <ins> (green, underlined), each named for a screen reader. `side` shows both in
 * one text, or one side of a side-by-side comparison: `before` with what it loses, `after` with
 * what it gains.
 */
export function WordChanges({
  before,
  after,
  side = 'both',
  labels,
}: {
  before: string;
  after: string;
  side?: 'both' | 'before' | 'after';
  labels: WordChangeLabels;
}) {
  return (
    <>
      {wordDiff(before, after).map((part, i) => {
        if (part.kind === 'same') return <span key={i}>{part.text}</span>;
        if (side === (part.kind === 'removed' ? 'after' : 'before')) return null;
        const [lead, core, trail] = trimmed(part.text);
        if (!core) return <span key={i}>{part.text}</span>;
        return (
          <Fragment key={i}>
            {lead}
            <span className="sr-only">[{part.kind === 'removed' ? labels.removed : labels.added}: </span>
            {part.kind === 'removed' ? (
              <del className={`${side === 'both' ? 'mr-1 ' : ''}rounded-sm bg-red-100 px-0.5 text-red-800 line-through decoration-red-700`}>
                {core}
              </del>
            ) : (
              <ins className="rounded-sm bg-green-100 px-0.5 text-green-900 underline decoration-green-700">{core}</ins>
            )}
            <span className="sr-only">]</span>
            {trail}
          </Fragment>
        );
      })}
    </>
  );
}
