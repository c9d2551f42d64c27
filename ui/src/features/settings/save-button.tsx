import { Button, type ButtonProps } from '../../components';
import type { SaveAction } from './use-save-action';

/** A save button that says 'Saved' for a while after its call succeeded (`SAVED_MS`). */
export function SaveButton({
  action,
  children = 'Save',
  ...rest
}: Omit<ButtonProps, 'loading'> & { action: Pick<SaveAction, 'loading' | 'saved'> }) {
  return (
    <Button {...rest} variant={action.saved ? 'secondary' : 'primary'} loading={action.loading}>
      {action.saved ? 'Saved' : children}
    </Button>
  );
}
