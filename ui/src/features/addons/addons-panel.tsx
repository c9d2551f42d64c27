import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Panel, Spinner } from '../../components';
import { useLoad } from '../../lib/use-load';
import { failureText } from '../../lib/use-save-action';
import { fetchAddons, installAddon, uninstallAddon, type Addon } from './api';

interface Lists {
  installed: Addon[];
  uninstalled: Addon[];
}

/** A call under way: which addon and which way. */
interface Change {
  addonId: number;
  installing: boolean;
}

/**
 * The 'Addons' panel: the installed and the available addons with their descriptions, each with
 * 'Uninstall' or 'Install'. An addon moves from one list to the other only by the server's say: both
 * lists are loaded again after every call, whether it worked or not.
 */
export function AddonsPanel({ blogId }: { blogId: number }) {
  const load = useLoad(
    async (signal): Promise<Lists> => {
      const [installed, uninstalled] = await Promise.all([
        fetchAddons(blogId, 'installed', signal),
        fetchAddons(blogId, 'uninstalled', signal),
      ]);
      return { installed, uninstalled };
    },
    [blogId],
  );
  // The lists stay while they load again, and beside a failure to do so.
  const lists = load.lastData;
  const [change, setChange] = useState<Change | null>(null);
  const [failure, setFailure] = useState<{ addonId: number; error: unknown } | null>(null);
  const busy = useRef(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const toggle = async (addon: Addon, installing: boolean) => {
    if (busy.current) return;
    busy.current = true;
    setChange({ addonId: addon.id, installing });
    setFailure(null);
    try {
      if (installing) await installAddon(blogId, addon.id);
      else await uninstallAddon(blogId, addon.id);
    } catch (error) {
      if (mounted.current) setFailure({ addonId: addon.id, error });
    }
    // Whatever happened, show the lists as the server has them now.
    await load.reload();
    busy.current = false;
    if (mounted.current) setChange(null);
  };

  const row = (addon: Addon, installed: boolean) => (
    <li key={addon.id} className="q-settings__item">
      <div className="q-settings__item-text">
        <strong>{addon.name}</strong>
        <span className="q-settings__muted">{addon.description}</span>
        {failure?.addonId === addon.id && (
          <span className="q-settings__error" role="alert">
            {failureText(failure.error)}
          </span>
        )}
      </div>
      <Button
        variant={installed ? 'secondary' : 'primary'}
        onClick={() => void toggle(addon, !installed)}
        loading={change?.addonId === addon.id}
        disabled={change !== null}
        aria-label={`${installed ? 'Uninstall' : 'Install'} ${addon.name}`}
      >
        {installed ? 'Uninstall' : 'Install'}
      </Button>
    </li>
  );

  const loadMessage = failureText(load.lastError);

  return (
    <Panel title="Addons">
      {!lists && !loadMessage && <Spinner label="Loading addons" />}
      {loadMessage && (
        <div className="q-settings__row">
          <p className="q-settings__error" role="alert">
            {loadMessage}
          </p>
          <Button variant="secondary" onClick={() => void load.reload()}>
            Try again
          </Button>
        </div>
      )}
      {lists && (
        <div className="q-settings__stack">
          <AddonList id="q-addons-installed" title="Installed" empty="No addon is installed yet.">
            {lists.installed.map((addon) => row(addon, true))}
          </AddonList>
          <AddonList id="q-addons-available" title="Available" empty="Every addon is installed.">
            {lists.uninstalled.map((addon) => row(addon, false))}
          </AddonList>
        </div>
      )}
    </Panel>
  );
}

/** One of the two lists under its heading (`id` names it), or `empty` when it has no rows. */
function AddonList({
  id,
  title,
  empty,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  children: ReactNode[];
}) {
  return (
    <section aria-labelledby={id}>
      <h3 className="q-settings__subtitle" id={id}>
        {title}
      </h3>
      {children.length > 0 ? (
        <ul className="q-settings__list">{children}</ul>
      ) : (
        <p className="q-settings__muted">{empty}</p>
      )}
    </section>
  );
}
