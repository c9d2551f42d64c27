import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { TextInput, type TextInputProps } from './text-input';

function Controlled(props: Partial<TextInputProps>) {
  const [value, setValue] = useState('');
  return <TextInput label="Subdomain" value={value} onChange={setValue} {...props} />;
}

describe('TextInput', () => {
  it('is labelled and reports typed values', async () => {
    const onChange = vi.fn();
    render(<TextInput label="Name" value="" onChange={onChange} placeholder="My blog" />);
    const input = screen.getByLabelText('Name');
    expect(input).toHaveAttribute('placeholder', 'My blog');
    await userEvent.type(input, 'a');
    expect(onChange).toHaveBeenCalledWith('a', expect.anything());
  });

  it('shows an error under the input and marks it invalid', () => {
    render(<TextInput label="Subdomain" value="ab" onChange={() => undefined} error="Is too short" />);
    const input = screen.getByRole('textbox', { name: 'Subdomain' });
    const error = screen.getByRole('alert');
    expect(error).toHaveTextContent('Is too short');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(/Is too short/);
  });

  it('has no error line and is valid without an error', () => {
    render(<TextInput label="Subdomain" value="ab" onChange={() => undefined} error={null} hint="3 or more" />);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('textbox')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('textbox')).toHaveAccessibleDescription('3 or more');
  });

  it('passes constraint attributes through to the input', () => {
    render(<Controlled required minLength={3} maxLength={10} pattern="[a-z0-9]+" />);
    const input = screen.getByRole('textbox', { name: /Subdomain/ });
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('minlength', '3');
    expect(input).toHaveAttribute('maxlength', '10');
    expect(input).toHaveAttribute('pattern', '[a-z0-9]+');
  });

  it('shows text beside the input and describes the input with it', async () => {
    render(<Controlled suffix=".localhost:8080" prefix="https://" />);
    const input = screen.getByRole('textbox', { name: 'Subdomain' });
    expect(screen.getByText('.localhost:8080')).toBeInTheDocument();
    expect(input).toHaveAccessibleDescription('https:// .localhost:8080');
    await userEvent.type(input, 'alice');
    expect(input).toHaveValue('alice');
  });

  it('can be disabled', async () => {
    const onChange = vi.fn();
    render(<TextInput label="Name" value="x" onChange={onChange} disabled />);
    expect(screen.getByLabelText('Name')).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Name'), 'y');
    expect(onChange).not.toHaveBeenCalled();
  });
});
