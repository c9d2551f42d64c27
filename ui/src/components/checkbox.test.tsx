import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Checkbox } from './checkbox';

function Controlled() {
  const [checked, setChecked] = useState(false);
  return <Checkbox label="Mark as draft" checked={checked} onChange={setChecked} />;
}

describe('Checkbox', () => {
  it('toggles when its box or its label is clicked', async () => {
    render(<Controlled />);
    const box = screen.getByRole('checkbox', { name: 'Mark as draft' });
    expect(box).not.toBeChecked();
    await userEvent.click(box);
    expect(box).toBeChecked();
    await userEvent.click(screen.getByText('Mark as draft'));
    expect(box).not.toBeChecked();
  });

  it('toggles with the keyboard', async () => {
    render(<Controlled />);
    const box = screen.getByRole('checkbox', { name: 'Mark as draft' });
    await userEvent.tab();
    expect(box).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(box).toBeChecked();
  });

  it('does not change when disabled', async () => {
    const onChange = vi.fn();
    render(<Checkbox label="Locked" checked onChange={onChange} disabled />);
    const box = screen.getByRole('checkbox', { name: 'Locked' });
    expect(box).toBeDisabled();
    await userEvent.click(box);
    expect(onChange).not.toHaveBeenCalled();
    expect(box).toBeChecked();
  });
});
