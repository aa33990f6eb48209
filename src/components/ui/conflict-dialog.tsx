import { SHELL, ERRORS } from '../../../common/texts';
import { Button } from './button';
import { Dialog } from './dialog';

/**
 * Someone else saved the record since this form opened (the API answered 409). The user
 * reloads the newer version (their touched fields stay) or overwrites it with theirs.
 */
export function ConflictDialog({
  open,
  onOpenChange,
  onReload,
  onOverwrite,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  onReload(): void;
  onOverwrite(): void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Changed by someone else"
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {SHELL.cancel}
          </Button>
          <Button variant="secondary" onClick={onReload}>
            Reload their version
          </Button>
          <Button variant="danger" onClick={onOverwrite}>
            Overwrite
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-700">
        {ERRORS.conflict} Reload keeps the fields you changed and takes the rest from the newer version; Overwrite saves your form as it is.
      </p>
    </Dialog>
  );
}
