import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button';
import { Modal } from './modal';
import { TextInput } from './text-input';

function Harness({ onClose, trailing }: { onClose?: () => void; trailing?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const close = () => {
    onClose?.();
    setOpen(false);
  };
  return (
    <div data-testid="page">
      <Button onClick={() => setOpen(true)}>Open</Button>
      <Modal
        open={open}
        onClose={close}
        title="Name your blog"
        footer={
          <>
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button onClick={close}>Save</Button>
            {trailing}
          </>
        }
      >
        <TextInput label="Blog name" value={name} onChange={setName} />
      </Modal>
    </div>
  );
}

async function openModal() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Open' }));
  return { user, dialog: screen.getByRole('dialog', { name: 'Name your blog' }) };
}

describe('Modal', () => {
  it('renders nothing while closed', () => {
    render(<Harness />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens as a labelled modal dialog in a portal with focus inside', async () => {
    render(<Harness />);
    const { dialog } = await openModal();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByTestId('page')).not.toContainElement(dialog);
    expect(screen.getByRole('textbox', { name: 'Blog name' })).toHaveFocus();
    expect(screen.getByTestId('page').closest('[inert]')).not.toBeNull();
  });

  it('closes on Escape and gives focus back to the opener', async () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const { user } = await openModal();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledOnce();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus();
    expect(document.querySelector('[inert]')).toBeNull();
  });

  it('closes on a backdrop click but not on a click inside', async () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const { user, dialog } = await openModal();
    await user.click(dialog);
    expect(onClose).not.toHaveBeenCalled();
    const overlay = dialog.parentElement;
    if (!overlay) throw new Error('no overlay');
    await user.click(overlay);
    expect(onClose).toHaveBeenCalledOnce();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes from the × button and the footer actions', async () => {
    render(<Harness />);
    let { user } = await openModal();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    ({ user } = await openModal());
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps Tab inside the dialog', async () => {
    render(<Harness />);
    const { user, dialog } = await openModal();
    for (let i = 0; i < 6; i += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.tab({ shift: true });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
  });

  it('does not count a control out of the tab order as the last Tab stop (the Add-block file input)', async () => {
    render(<Harness trailing={<input type="file" aria-label="Image file" hidden tabIndex={-1} />} />);
    const { user, dialog } = await openModal();
    screen.getByRole('button', { name: 'Save' }).focus();
    await user.tab();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(document.activeElement).not.toBe(screen.getByRole('button', { name: 'Open', hidden: true }));
  });
});
