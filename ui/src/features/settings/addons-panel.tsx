import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Panel, Spinner } from '../../components';
import { fetchAddons, installAddon, uninstallAddon, type Addon } from './api';
import { failureText } from './use-save-action';

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
 * The 'Addons' panel (SPEC §4 "Addons move from uninstalled to installed by an install call and back
 * by an uninstall call"): the installed and the available addons with their descriptions, each with
 * 'Uninstall' or 'Install'. Both lists are loaded again after every call.
 */
export function AddonsPanel({ blogId }: { blogId: number }) {
  const [lists, setLists] = useState<Lists | null>(null);
  const [loadFailure, setLoadFailure] = useState<unknown>(null);
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

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const [installed, uninstalled] = await Promise.all([
          fetchAddons(blogId, 'installed', signal),
          fetchAddons(blogId, 'uninstalled', signal),
        ]);
        if (signal?.aborted || !mounted.current) return;
        setLists({ installed, uninstalled });
        setLoadFailure(null);
      } catch (error) {
        if (signal?.aborted || !mounted.current) return;
        setLoadFailure(error);
      }
    },
    [blogId],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

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
    await load();
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

  const loadMessage = failureText(loadFailure);

  return (
    <Panel title="Addons">
      {lists === null && !loadMessage && <Spinner label="Loading addons" />}
      {loadMessage && (
        <div className="q-settings__row">
          <p className="q-settings__error" role="alert">
            {loadMessage}
          </p>
          <Button variant="secondary" onClick={() => void load()}>
            Try again
          </Button>
        </div>
      )}
      {lists && (
        <div className="q-settings__stack">
          <section aria-labelledby="q-addons-installed">
            <h3 className="q-settings__subtitle" id="q-addons-installed">
              Installed
            </h3>
            {lists.installed.length > 0 ? (
              <ul className="q-settings__list">{lists.installed.map((addon) => row(addon, true))}</ul>
            ) : (
              <p className="q-settings__muted">No addon is installed yet.</p>
            )}
          </section>
          <section aria-labelledby="q-addons-available">
            <h3 className="q-settings__subtitle" id="q-addons-available">
              Available
            </h3>
            {lists.uninstalled.length > 0 ? (
              <ul className="q-settings__list">{lists.uninstalled.map((addon) => row(addon, false))}</ul>
            ) : (
              <p className="q-settings__muted">Every addon is installed.</p>
            )}
          </section>
        </div>
      )}
    </Panel>
  );
}
