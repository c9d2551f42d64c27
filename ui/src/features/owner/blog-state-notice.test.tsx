import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Blog } from '../blogs';
import { BlogStateNotice } from './blog-state-notice';

const blog = (state: Blog['state'], stateReason = ''): Blog =>
  ({ id: 1, subdomain: 'alice', name: 'alice', state, stateReason }) as Blog;

describe('BlogStateNotice', () => {
  it('says nothing for an approved blog', () => {
    const { container } = render(<BlogStateNotice blog={blog('approved')} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('says a new blog waits for review and what that means', () => {
    render(<BlogStateNotice blog={blog('new')} />);
    expect(screen.getByRole('note')).toHaveTextContent('Your blog is waiting for review.');
    expect(screen.getByRole('note')).toHaveTextContent('not sent to the fediverse');
  });

  it('gives a silenced or suspended blog the reason the admin wrote', () => {
    const { rerender } = render(<BlogStateNotice blog={blog('silenced', 'Too many links')} />);
    expect(screen.getByRole('note')).toHaveTextContent('Your blog has been silenced.');
    expect(screen.getByRole('note')).toHaveTextContent('Reason given: Too many links');
    rerender(<BlogStateNotice blog={blog('suspended', '<b>Phishing</b>')} />);
    expect(screen.getByRole('note')).toHaveTextContent('Your blog has been suspended.');
    expect(screen.getByRole('note')).toHaveTextContent('You can still export your blog and delete your account');
    expect(screen.getByRole('note')).toHaveTextContent('Reason given: <b>Phishing</b>');
  });
});
