import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alice } from '../../test/fake-api';
import { renderSettings, settingsServer, timeZones } from '../../test/fake-settings';

const blogPanel = () => screen.getByRole('region', { name: 'Blog' });
const zoneSelect = () => within(blogPanel()).getByRole('combobox', { name: 'Time Zone' });
const zoneSave = () => within(zoneSelect().closest('form')!).getByRole('button');

afterEach(() => {
  vi.useRealTimers();
});

describe('settings: time zone', () => {
  it("offers the server's zones with the blog's selected and says what the zone is for", async () => {
    settingsServer({}, { ...alice.blog, timeZone: 'Europe/Paris' });
    renderSettings({ blog: { ...alice.blog, timeZone: 'Europe/Paris' } });
    await waitFor(() => expect(within(zoneSelect()).getAllByRole('option')).toHaveLength(timeZones.length));
    expect(zoneSelect()).toHaveValue('Europe/Paris');
    expect(within(zoneSelect()).getByRole('option', { name: 'America/New York' })).toHaveValue('America/New_York');
    expect(zoneSelect()).toHaveAccessibleDescription('Dates on your public blog are shown in this time zone.');
  });

  it("saves the chosen zone, says 'Saved' for 3 seconds and keeps what the server stored", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = settingsServer();
    const { user } = renderSettings({ advanceTimers: vi.advanceTimersByTime });
    await waitFor(() => expect(within(zoneSelect()).getAllByRole('option')).toHaveLength(timeZones.length));
    expect(zoneSelect()).toHaveValue('UTC');

    await user.selectOptions(zoneSelect(), 'Asia/Tokyo');
    await user.click(zoneSave());

    expect(await within(blogPanel()).findByRole('button', { name: 'Saved' })).toBe(zoneSave());
    expect(server.sent('PUT', `/api/my/blogs/${alice.blog.id}/time_zone`).map((r) => r.body)).toEqual([
      { time_zone: 'Asia/Tokyo' },
    ]);
    expect(server.state.blog.timeZone).toBe('Asia/Tokyo');
    expect(zoneSelect()).toHaveValue('Asia/Tokyo');
    act(() => vi.advanceTimersByTime(3000));
    expect(zoneSave()).toHaveTextContent('Save');
  });

  it('keeps a zone the list does not offer (an old alias) selectable', async () => {
    settingsServer({}, { ...alice.blog, timeZone: 'US/Pacific' });
    renderSettings({ blog: { ...alice.blog, timeZone: 'US/Pacific' } });
    await waitFor(() => expect(within(zoneSelect()).getAllByRole('option')).toHaveLength(timeZones.length + 1));
    expect(zoneSelect()).toHaveValue('US/Pacific');
  });

  it("shows the server's message under the select when it refuses the zone", async () => {
    settingsServer({}, { ...alice.blog, timeZone: 'Mars/Olympus_Mons' });
    const { user } = renderSettings({ blog: { ...alice.blog, timeZone: 'Mars/Olympus_Mons' } });
    await user.click(zoneSave());
    expect(await within(blogPanel()).findByRole('alert')).toHaveTextContent('Unknown time zone');
    expect(zoneSelect()).toHaveAttribute('aria-invalid', 'true');
    expect(zoneSave()).toBeEnabled();
  });
});
