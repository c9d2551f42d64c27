import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../test/render-route';
import { Button, ButtonLink } from './button';

describe('Button', () => {
  it('is a non-submitting button by default and reports clicks', async () => {
    const onClick = vi.fn();
    render(<Button onClick={onClick}>Save</Button>);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toHaveAttribute('type', 'button');
    expect(button).toHaveClass('q-button--primary');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('can be a submit button that submits its form', async () => {
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <Button type="submit">Publish</Button>
      </form>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it('shows a spinner, is busy and ignores clicks while loading', async () => {
    const onClick = vi.fn();
    const { rerender, container } = render(
      <Button loading onClick={onClick}>
        Save
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(container.querySelector('.q-spinner')).not.toBeNull();
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();

    rerender(<Button onClick={onClick}>Save</Button>);
    expect(button).toBeEnabled();
    expect(button).not.toHaveAttribute('aria-busy');
    expect(container.querySelector('.q-spinner')).toBeNull();
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('applies the variant and disabled state', async () => {
    const onClick = vi.fn();
    render(
      <Button variant="danger" disabled onClick={onClick}>
        Delete Account
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Delete Account' });
    expect(button).toHaveClass('q-button--danger');
    expect(button).toBeDisabled();
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });
});

describe('ButtonLink', () => {
  it('navigates inside the app with `to`', async () => {
    const { history } = renderRoutes(
      [
        { path: '/', element: <ButtonLink to="/d/posts/new">New Post</ButtonLink> },
        { path: '/d/posts/new', element: <p>editor</p> },
      ],
      '/',
    );
    const link = screen.getByRole('link', { name: 'New Post' });
    expect(link).toHaveClass('q-button', 'q-button--secondary');
    await userEvent.click(link);
    expect(screen.getByText('editor')).toBeInTheDocument();
    expect(history.location.pathname).toBe('/d/posts/new');
  });

  it('opens an external address in a new tab safely', () => {
    render(
      <ButtonLink href="https://example.com/support" newTab variant="primary">
        Support
      </ButtonLink>,
    );
    const link = screen.getByRole('link', { name: 'Support' });
    expect(link).toHaveAttribute('href', 'https://example.com/support');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });
});
