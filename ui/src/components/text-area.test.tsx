import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TextArea } from './text-area';

function Controlled() {
  const [value, setValue] = useState('');
  return (
    <TextArea label="Paragraph" value={value} onChange={setValue} error={value === '' ? "Can't be blank" : null} />
  );
}

describe('TextArea', () => {
  it('has 8 rows unless told otherwise', () => {
    render(
      <>
        <TextArea label="Paragraph" value="" onChange={() => undefined} />
        <TextArea label="Short" value="" onChange={() => undefined} rows={3} />
      </>,
    );
    expect(screen.getByRole('textbox', { name: 'Paragraph' })).toHaveAttribute('rows', '8');
    expect(screen.getByRole('textbox', { name: 'Short' })).toHaveAttribute('rows', '3');
  });

  it('shows its error until the value fixes it', async () => {
    render(<Controlled />);
    const area = screen.getByRole('textbox', { name: 'Paragraph' });
    expect(screen.getByRole('alert')).toHaveTextContent("Can't be blank");
    expect(area).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(area, 'Hello{Enter}world');
    expect(area).toHaveValue('Hello\nworld');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(area).not.toHaveAttribute('aria-invalid');
  });
});
