import { lazy, Suspense, type ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** Hide the corner close button (for dialogs that must be answered). */
  hideClose?: boolean;
  /** Called before Escape / outside click close it; call event.preventDefault() to keep it open. */
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
  onInteractOutside?: (event: Event) => void;
  /** The body is text to read with nothing in it to focus: it takes the focus itself, so the keyboard scrolls it. */
  readingBody?: boolean;
}

// Radix Dialog (with its focus trap and scroll lock, ~20 KB) arrives the first time a dialog
// opens, so the login screen does not download it; a closed Radix dialog renders nothing either.
const DialogImpl = lazy(() => import('./dialog-impl'));

/** The one modal primitive: focus trap, Escape, backdrop click and labelling come from Radix. */
export function Dialog(props: DialogProps) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <DialogImpl {...props} />
    </Suspense>
  );
}
