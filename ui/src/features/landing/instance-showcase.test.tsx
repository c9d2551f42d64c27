import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InstanceAnswer } from '../../api-types/instance';
import { InstanceShowcase } from './instance-showcase';

const answer: InstanceAnswer = {
  description: '<p>A <strong>small</strong> instance. &lt;script&gt;alert(1)&lt;/script&gt;</p>',
  posts: [
    {
      title: 'Morning <b>tea</b>',
      url: 'http://alice.localhost:8080/morning-tea-abcd2345',
      publishedAt: '2026-03-14T12:00:00.000Z',
      blogName: 'Tea & cake',
      blogUrl: 'http://alice.localhost:8080/',
    },
    {
      title: 'Harbour',
      url: 'https://bob.example.org/harbour-efgh6789',
      publishedAt: '2026-03-13T12:00:00.000Z',
      blogName: 'Boats',
      blogUrl: 'https://bob.example.org/',
    },
  ],
};

describe('the instance on the landing page', () => {
  it("shows the operator's description as the server rendered it, raw HTML staying text", () => {
    const { container } = render(<InstanceShowcase instance={answer} />);
    const description = screen.getByTestId('instance-description');
    expect(within(description).getByText('small').tagName).toBe('STRONG');
    expect(description).toHaveTextContent('<script>alert(1)</script>');
    expect(container.querySelector('script')).toBeNull();
  });

  it('lists the newest posts, newest first, each linking its post and its blog, with its date', () => {
    render(<InstanceShowcase instance={answer} />);
    const list = within(screen.getByRole('region', { name: 'New on this instance' }));
    const items = list.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const first = within(items[0]!);
    // Titles and names are text: markup in them is shown, never run.
    expect(first.getByRole('link', { name: 'Morning <b>tea</b>' })).toHaveAttribute(
      'href',
      'http://alice.localhost:8080/morning-tea-abcd2345',
    );
    expect(first.getByRole('link', { name: 'Tea & cake' })).toHaveAttribute('href', 'http://alice.localhost:8080/');
    expect(items[0]!.querySelector('time')).toHaveAttribute('datetime', '2026-03-14T12:00:00.000Z');
    expect(items[0]!.querySelector('time')?.textContent).toMatch(/2026/);
    expect(within(items[1]!).getByRole('link', { name: 'Harbour' })).toHaveAttribute(
      'href',
      'https://bob.example.org/harbour-efgh6789',
    );
  });

  it('shows nothing while loading or when the instance has nothing to show', () => {
    const { container, rerender } = render(<InstanceShowcase instance={null} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<InstanceShowcase instance={{ description: '', posts: [] }} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<InstanceShowcase instance={{ description: '', posts: answer.posts }} />);
    expect(screen.queryByTestId('instance-description')).toBeNull();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });
});
