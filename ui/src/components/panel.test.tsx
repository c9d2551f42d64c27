import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Panel } from './panel';

describe('Panel', () => {
  it('is a titled region that always shows its content', () => {
    render(
      <Panel title="Blog">
        <p>Name field</p>
      </Panel>,
    );
    expect(screen.getByRole('region', { name: 'Blog' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Blog' })).toBeInTheDocument();
    expect(screen.getByText('Name field')).toBeVisible();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('starts collapsed when asked and expands and collapses from its title', async () => {
    render(
      <Panel title="Danger Zone!" collapsible defaultCollapsed tone="danger">
        <p>Deleting removes posts permanently.</p>
      </Panel>,
    );
    const toggle = screen.getByRole('button', { name: 'Danger Zone!' });
    const content = screen.getByText('Deleting removes posts permanently.');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(content).not.toBeVisible();

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(content).toBeVisible();
    expect(document.getElementById(toggle.getAttribute('aria-controls') ?? '')).toContainElement(content);

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(content).not.toBeVisible();
  });

  it('starts open when collapsible without defaultCollapsed', () => {
    render(
      <Panel title="Social Accounts" collapsible>
        <p>Connected</p>
      </Panel>,
    );
    expect(screen.getByRole('button', { name: 'Social Accounts' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Connected')).toBeVisible();
  });
});
