import { VARIETIES } from '../../../common/varieties';
import { cn } from '../../components/ui/cn';

/** The Yes/No badge of 'Recommended in Tarlac'. */
export function RecommendedBadge({ value }: { value: boolean }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold',
        value ? 'bg-brand-100 text-brand-800' : 'bg-slate-100 text-slate-600',
      )}
    >
      {value ? VARIETIES.yes : VARIETIES.no}
    </span>
  );
}
