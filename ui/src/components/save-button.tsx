import type { SaveAction } from '../lib/use-save-action';
import { Button, type ButtonProps } from './button';

/** A Button whose state is a save action's (`useSaveAction`, lib/use-save-action.ts). */
export type SaveButtonProps = Omit<ButtonProps, 'loading'> & { action: Pick<SaveAction, 'loading' | 'saved'> };

/** A save button that says 'Saved' for a while after its call succeeded (`SAVED_MS`). */
export function SaveButton({ action, children = 'Save', ...rest }: SaveButtonProps) {
  return (
    <Button {...rest} variant={action.saved ? 'secondary' : 'primary'} loading={action.loading}>
      {action.saved ? 'Saved' : children}
    </Button>
  );
}
