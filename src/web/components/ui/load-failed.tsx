import { cn } from '../../lib/utils.ts';
import { Button } from './button.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** What a page shows when its data could not be loaded: the reason and a way to ask again. */
export function LoadFailed({ message, onRetry, className }: { message: string; onRetry: () => void; className?: string }) {
  return (
    <div role="alert" className={cn('flex flex-col items-center gap-3 py-8 text-center', className)}>
      <p className="text-sm text-red-700">{message}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        {t('common.tryAgain')}
      </Button>
    </div>
  );
}
