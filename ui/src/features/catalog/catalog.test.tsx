import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { catalogDemos } from '../../config/paths';
import { CATALOG_DEMO_LINKS } from '../../test/catalog-demos';
import { renderRoute } from '../../test/render-route';
import { demoValidationMessage } from './demo-rules';

function nav() {
  return screen.getByRole('navigation', { name: 'Component demos' });
}

describe('catalog navigation', () => {
  it('lists a link to every demo, in order, on the index', () => {
    renderRoute('/catalog');
    const links = within(nav()).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual(CATALOG_DEMO_LINKS);
    expect(links.filter((link) => link.getAttribute('aria-current') === 'page')).toEqual([]);
    expect(screen.getByRole('heading', { level: 1, name: 'Component catalog' })).toBeInTheDocument();
  });

  it('highlights the current demo and moves the highlight on navigation', async () => {
    const { user, history } = renderRoute('/catalog/select');
    const select = within(nav()).getByRole('link', { name: 'Select' });
    expect(select).toHaveAttribute('aria-current', 'page');
    expect(select).toHaveClass('catalog__link--active');

    await user.click(within(nav()).getByRole('link', { name: 'Panel' }));
    expect(history.location.pathname).toBe('/catalog/panel');
    expect(within(nav()).getByRole('link', { name: 'Panel' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav()).getByRole('link', { name: 'Select' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('heading', { level: 1, name: 'Panel' })).toBeInTheDocument();
  });

  it.each(catalogDemos.map((demo) => [demo.slug, demo.label]))('renders the %s demo', (slug, label) => {
    renderRoute(`/catalog/${slug}`);
    expect(screen.getByRole('heading', { level: 1, name: label })).toBeInTheDocument();
    expect(document.title).toBe(`${label} · Catalog · Quire`);
  });
});

describe('demo validation rules', () => {
  it('checks minimum length, maximum length and the pattern', () => {
    expect(demoValidationMessage('')).toBeNull();
    expect(demoValidationMessage('', true)).toBe("Can't be blank");
    expect(demoValidationMessage('ab')).toMatch(/at least 3/);
    expect(demoValidationMessage('abcdefghijk')).toMatch(/at most 10/);
    expect(demoValidationMessage('Abc')).toMatch(/lowercase letters/);
    expect(demoValidationMessage('ab-c')).toMatch(/lowercase letters/);
    expect(demoValidationMessage('abc')).toBeNull();
    expect(demoValidationMessage('alice42xyz')).toBeNull();
  });
});

describe('catalog demos', () => {
  it('Button: the loading button disables itself and can be stopped', async () => {
    const { user } = renderRoute('/catalog/button');
    const loading = screen.getByRole('region', { name: 'Loading' });
    const save = within(loading).getByRole('button', { name: 'Save' });
    await user.click(save);
    expect(save).toBeDisabled();
    expect(save).toHaveAttribute('aria-busy', 'true');
    expect(within(loading).getByRole('status')).toHaveTextContent('Loading: yes');
    await user.click(within(loading).getByRole('button', { name: 'Stop loading' }));
    expect(save).toBeEnabled();
    expect(within(loading).getByRole('status')).toHaveTextContent('Loading: no');
  });

  it('Button: variant clicks are reported and disabled buttons do nothing', async () => {
    const { user } = renderRoute('/catalog/button');
    const variants = screen.getByRole('region', { name: 'Variants' });
    await user.click(within(variants).getByRole('button', { name: 'Danger' }));
    expect(within(variants).getByRole('status')).toHaveTextContent('Last clicked: Danger');
    const disabled = screen.getByRole('region', { name: 'Disabled' });
    for (const button of within(disabled).getAllByRole('button')) expect(button).toBeDisabled();
  });

  it('TextInput: too short, then a bad pattern, then a valid value', async () => {
    const { user } = renderRoute('/catalog/textinput');
    const section = within(screen.getByRole('region', { name: 'Validated' }));
    const input = section.getByRole('textbox', { name: /Username/ });
    expect(input).toHaveAttribute('minlength', '3');
    expect(input).toHaveAttribute('maxlength', '10');
    expect(input).toHaveAttribute('pattern', '[a-z0-9]+');
    expect(section.queryByRole('alert')).toBeNull();

    await user.type(input, 'ab');
    expect(section.getByRole('alert')).toHaveTextContent('Too short: use at least 3 characters (now 2).');
    expect(input).toHaveAttribute('aria-invalid', 'true');

    await user.type(input, 'C!');
    expect(section.getByRole('alert')).toHaveTextContent('Use only lowercase letters (a–z) and digits (0–9).');

    await user.clear(input);
    expect(section.getByRole('alert')).toHaveTextContent("Can't be blank");

    await user.type(input, 'alice42');
    expect(section.queryByRole('alert')).toBeNull();
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('TextInput: the subdomain example shows the configured host beside the input', () => {
    renderRoute('/catalog/textinput');
    expect(screen.getByText(`.${window.location.host}`)).toBeInTheDocument();
  });

  it('TextArea: validates like the text input and defaults to 8 rows', async () => {
    const { user } = renderRoute('/catalog/textarea');
    const section = within(screen.getByRole('region', { name: 'Validated' }));
    const note = section.getByRole('textbox', { name: /Note/ });
    await user.type(note, 'x');
    expect(section.getByRole('alert')).toHaveTextContent(/at least 3/);
    await user.type(note, 'Y2');
    expect(section.getByRole('alert')).toHaveTextContent(/lowercase letters/);
    await user.clear(note);
    await user.type(note, 'xyz2');
    expect(section.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Paragraph' })).toHaveAttribute('rows', '8');
  });

  it('Select: the readout follows the choice', async () => {
    const { user } = renderRoute('/catalog/select');
    const basic = screen.getByRole('region', { name: 'Basic' });
    expect(within(basic).getByRole('status')).toHaveTextContent('Selected: Default');
    await user.selectOptions(within(basic).getByRole('combobox', { name: 'Theme' }), 'Mono');
    expect(within(basic).getByRole('status')).toHaveTextContent('Selected: Mono');
  });

  it('Checkbox: the readout and the dependent button follow the box', async () => {
    const { user } = renderRoute('/catalog/checkbox');
    const box = screen.getByRole('checkbox', { name: "I understand what I'm going to do." });
    const remove = screen.getByRole('button', { name: 'Delete Account' });
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('Checked: no');
    expect(remove).toBeDisabled();
    await user.click(box);
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('Checked: yes');
    expect(remove).toBeEnabled();
    await user.click(box);
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('Checked: no');
  });

  it('Panel: the danger zone starts collapsed and expands', async () => {
    const { user } = renderRoute('/catalog/panel');
    const toggle = screen.getByRole('button', { name: 'Danger Zone!' });
    const text = screen.getByText('This content stays hidden until the title is clicked.');
    expect(text).not.toBeVisible();
    await user.click(toggle);
    expect(text).toBeVisible();
  });

  it('Modal: opens, closes with Escape and reports how it closed', async () => {
    const { user } = renderRoute('/catalog/modal');
    const open = screen.getByRole('button', { name: 'Open modal' });
    await user.click(open);
    expect(screen.getByRole('dialog', { name: 'Name your blog' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('Last result: closed')).toBeInTheDocument();
    expect(open).toHaveFocus();

    await user.click(open);
    await user.type(screen.getByRole('textbox', { name: 'Blog name' }), 'Notes');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Last result: saved "Notes"')).toBeInTheDocument();
  });
});
