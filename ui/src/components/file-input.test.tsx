import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FileInput } from './file-input';

describe('FileInput', () => {
  it('is labelled, described by its hint and reports the chosen file', async () => {
    const onChange = vi.fn();
    render(<FileInput label="Export file" hint="Up to 512 MiB." onChange={onChange} accept=".xml" />);
    const input = screen.getByLabelText('Export file');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('accept', '.xml');
    expect(input).toHaveAccessibleDescription('Up to 512 MiB.');
    const file = new File(['<rss/>'], 'blog.xml', { type: 'text/xml' });
    await userEvent.upload(input as HTMLInputElement, file);
    expect(onChange).toHaveBeenCalledWith(file, expect.anything());
  });

  it('shows an error under the picker and marks it invalid', () => {
    render(<FileInput label="Export file" onChange={() => undefined} error="This file is empty." />);
    expect(screen.getByRole('alert')).toHaveTextContent('This file is empty.');
    expect(screen.getByLabelText('Export file')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Export file')).toHaveAccessibleDescription('This file is empty.');
  });
});
