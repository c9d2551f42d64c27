import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errors, fakeApi, json } from '../../test/fake-api';
import { CommentsPanel } from './comments-panel';
import { CommentsSwitch } from './comments-switch';

const path = '/api/my/blogs/7/comments';

describe('comments panel', () => {
  it('shows who may comment and the blocked words, and saves both as the server stores them', async () => {
    const server = fakeApi({
      [`GET ${path}`]: () => json({ comments: { mode: 'off', blocked_words: ['casino'] } }),
      [`PUT ${path}`]: () => json({ comments: { mode: 'held', blocked_words: ['casino', 'pills'] } }),
    });
    const user = userEvent.setup();
    render(<CommentsPanel blogId={7} />);
    const mode = await screen.findByRole('combobox', { name: 'Who may comment' });
    expect(mode).toHaveValue('off');
    const words = screen.getByRole('textbox', { name: 'Blocked words' });
    expect(words).toHaveValue('casino');
    await user.selectOptions(mode, 'held');
    await user.type(words, '\n\n  Pills ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'Saved' })).toBeInTheDocument();
    expect(server.sent('PUT', path)[0]!.body).toEqual({ mode: 'held', blocked_words: ['casino', '  Pills '] });
    expect(words).toHaveValue('casino\npills');
  });

  it('says why a save was refused and keeps what was typed', async () => {
    fakeApi({
      [`GET ${path}`]: () => json({ comments: { mode: 'held', blocked_words: [] } }),
      [`PUT ${path}`]: () => errors(422, { blockedWords: 'At most 200 words' }),
    });
    const user = userEvent.setup();
    render(<CommentsPanel blogId={7} />);
    const words = await screen.findByRole('textbox', { name: 'Blocked words' });
    await user.type(words, 'spam');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('At most 200 words');
    expect(words).toHaveValue('spam');
  });

  it("closes a post's comments as soon as it is switched", async () => {
    const server = fakeApi({
      'PUT /api/my/blogs/7/posts/ab12cd34/comments': () => json({ comments_closed: true }),
    });
    const user = userEvent.setup();
    render(<CommentsSwitch blogId={7} postId="ab12cd34" closed={false} />);
    const box = screen.getByRole('checkbox', { name: /Close comments/ });
    await user.click(box);
    expect(server.sent('PUT', '/api/my/blogs/7/posts/ab12cd34/comments')[0]!.body).toEqual({ closed: true });
    expect(box).toBeChecked();
  });
});
