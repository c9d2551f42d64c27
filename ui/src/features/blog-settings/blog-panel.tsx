import { useEffect, useId, useState } from 'react';
import { Button, Panel, SaveButton, Select, TextInput } from '../../components';
import { useLoad } from '../../lib/use-load';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import { refreshBlogInBackground, type Blog, type Favicon, type Theme } from '../blogs';
import { fetchThemes, renameBlog, setFavicon, setTheme } from './api';
import './blog-settings.css';
import { CustomCssForm } from './custom-css-form';
import { AiCrawlersSwitch, DescriptionForm, ListedSwitch } from './description-form';
import { FaviconImage } from './favicon-image';
import { IconPicker } from './icon-picker';
import { TimeZoneForm } from './time-zone-form';
import { useFaviconPages } from './use-favicon-pages';
import { useSavedValue } from './use-saved-value';

export interface BlogPanelProps {
  /** The owner area's blog: each save refreshes it, and the panel follows what it loads. */
  blog: Blog;
}

/**
 * The 'Blog' panel: name, description, the landing page listing, the answer to AI crawlers, theme
 * (with its custom CSS), time zone and tab icon, each saved on its own, and the uploads' use of the quota.
 */
export function BlogPanel({ blog }: BlogPanelProps) {
  return (
    <Panel title="Blog">
      <div className="q-settings__stack">
        <NameForm blog={blog} />
        <DescriptionForm blog={blog} />
        <ListedSwitch blog={blog} />
        <AiCrawlersSwitch blog={blog} />
        <ThemeForm blog={blog} />
        <CustomCssForm blog={blog} />
        <TimeZoneForm blog={blog} />
        <TabIcon blog={blog} />
        <p className="q-settings__muted" data-testid="upload-use">
          Uploads: {blog.uploadUse}
        </p>
      </div>
    </Panel>
  );
}

function NameForm({ blog }: BlogPanelProps) {
  const name = useSavedValue(blog.name, async (value) => (await renameBlog(blog.id, value)).name);
  return (
    <form className="q-settings__row" onSubmit={name.submit} noValidate>
      <TextInput
        label="Name"
        className="q-settings__grow"
        value={name.value}
        onChange={name.change}
        error={failureText(name.save.failure, 'name')}
        autoComplete="off"
      />
      <SaveButton type="submit" action={name.save} />
    </form>
  );
}

function ThemeForm({ blog }: BlogPanelProps) {
  // Until every theme is in, the blog's own is the one choice.
  const load = useLoad(fetchThemes, []);
  const themes: Theme[] = load.lastData ?? [blog.theme];
  const theme = useSavedValue(String(blog.theme.id), async (value) =>
    String((await setTheme(blog.id, Number(value))).theme.id),
  );
  return (
    <form className="q-settings__row" onSubmit={theme.submit} noValidate>
      <Select
        label="Theme"
        className="q-settings__grow"
        options={themes.map((choice) => ({ value: String(choice.id), label: choice.name }))}
        value={theme.value}
        onChange={theme.change}
        error={failureText(theme.save.failure, 'themeId') ?? failureText(load.lastError)}
      />
      <SaveButton type="submit" action={theme.save} />
    </form>
  );
}

function TabIcon({ blog }: BlogPanelProps) {
  // The icon the last save answered with, until the reloaded blog says the same.
  const [favicon, setShown] = useState<Favicon>(blog.favicon);
  const [open, setOpen] = useState(false);
  const pages = useFaviconPages();
  const save = useSaveAction();
  const labelId = `q-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}-tab-icon`;

  useEffect(() => setShown(blog.favicon), [blog.favicon]);

  const pick = (chosen: Favicon) => {
    void save
      .run(async () => {
        const updated = await setFavicon(blog.id, chosen.id);
        setShown(updated.favicon);
        refreshBlogInBackground();
      })
      .then((ok) => {
        if (ok) setOpen(false);
      });
  };

  return (
    <div className="q-field q-settings__tab-icon">
      <span className="q-field__label" id={labelId}>
        Tab Icon
      </span>
      <div className="q-settings__row" role="group" aria-labelledby={labelId}>
        {/* How a reader's browser tab shows the blog: its icon and its name. */}
        <span className="q-tab-preview">
          <FaviconImage favicon={favicon} className="q-tab-preview__icon" />
          <span className="q-tab-preview__title">{blog.name}</span>
        </span>
        <Button
          variant={save.saved ? 'secondary' : 'primary'}
          onClick={() => {
            save.reset();
            setOpen(true);
          }}
        >
          {save.saved ? 'Saved' : 'Change'}
        </Button>
      </div>
      <IconPicker
        open={open}
        onClose={() => {
          if (!save.loading) setOpen(false);
        }}
        pages={pages}
        current={favicon}
        onPick={pick}
        saving={save.loading}
        error={failureText(save.failure, 'faviconId')}
      />
    </div>
  );
}
