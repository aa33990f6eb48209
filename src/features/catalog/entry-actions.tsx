import { Eye, Pencil, Trash2 } from 'lucide-react';
import { CATALOG_LABELS } from '../../../common/catalog-texts';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';

/** An entry's View, Edit and Delete, named with the entry: spread over a card's width, or side by side in a list row. */
export function EntryActions({
  name,
  onView,
  onEdit,
  onDelete,
  wide,
}: {
  name: string;
  onView(): void;
  onEdit(): void;
  onDelete(): void;
  /** The card's buttons: outlined, sharing its width. */
  wide?: boolean;
}) {
  const each = wide ? 'flex-1' : undefined;
  const variant = wide ? 'secondary' : 'ghost';
  return (
    <>
      <Button variant={variant} size="sm" className={each} onClick={onView} aria-label={`${CATALOG_LABELS.view} ${name}`}>
        <Eye className="h-4 w-4" aria-hidden />
        {CATALOG_LABELS.view}
      </Button>
      <Button variant={variant} size="sm" className={each} onClick={onEdit} aria-label={`${CATALOG_LABELS.edit} ${name}`}>
        <Pencil className="h-4 w-4" aria-hidden />
        {CATALOG_LABELS.edit}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className={cn(each, 'text-red-600 hover:bg-red-50')}
        onClick={onDelete}
        aria-label={`${CATALOG_LABELS.delete} ${name}`}
      >
        <Trash2 className="h-4 w-4" aria-hidden />
        {CATALOG_LABELS.delete}
      </Button>
    </>
  );
}
