import { HELP_TEXTS } from '../../../common/help-texts';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';

/** The header's Help: the office's usual questions, each answered in a few sentences. */
export function HelpDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={HELP_TEXTS.title}
      description={HELP_TEXTS.intro}
      size="lg"
      readingBody
      footer={
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          {HELP_TEXTS.close}
        </Button>
      }
    >
      <dl className="space-y-4 text-sm">
        {HELP_TEXTS.topics.map((topic) => (
          <div key={topic.title}>
            <dt className="font-semibold text-slate-900">{topic.title}</dt>
            <dd className="mt-1 text-slate-700">{topic.text}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
