import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Select } from './select';

const options = [
  { value: '1', label: 'Default' },
  { value: '2', label: 'Serif' },
  { value: '3', label: 'Mono', disabled: true },
];

function Controlled() {
  const [value, setValue] = useState('1');
  return (
    <>
      <Select label="Theme" options={options} value={value} onChange={setValue} />
      <p>Now: {value}</p>
    </>
  );
}

describe('Select', () => {
  it('lists the options and reports the chosen value', async () => {
    render(<Controlled />);
    const select = screen.getByRole('combobox', { name: 'Theme' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Default', 'Serif', 'Mono']);
    expect(screen.getByRole('option', { name: 'Mono' })).toBeDisabled();
    await userEvent.selectOptions(select, 'Serif');
    expect(select).toHaveValue('2');
    expect(screen.getByText('Now: 2')).toBeInTheDocument();
  });

  it('shows a placeholder, an error and can be disabled', async () => {
    const onChange = vi.fn();
    render(
      <Select
        label="Block"
        options={options}
        value=""
        onChange={onChange}
        placeholder="Choose one"
        error="Can't be blank"
        disabled
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Block' });
    expect(select).toHaveDisplayValue('Choose one');
    expect(select).toBeDisabled();
    expect(select).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent("Can't be blank");
    await userEvent.selectOptions(select, 'Serif').catch(() => undefined);
    expect(onChange).not.toHaveBeenCalled();
  });
});
