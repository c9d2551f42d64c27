import { use, type ComponentType, type FunctionComponent } from 'react';

/** A screen whose code is a chunk of its own, fetched when it is first shown (or `preload`ed). */
export type LazyScreen = FunctionComponent & { preload(): Promise<void> };

/**
 * Wraps `load` (an `import()` that resolves to the screen's component) as a component that suspends until
 * the code is there, then renders it; once loaded it renders at once. As with `React.lazy`, a failed fetch
 * throws to the nearest error boundary, and keeps doing so until the page is reloaded (which the error
 * screen suggests): trying again on every render would loop while the network is down.
 */
export function lazyScreen(load: () => Promise<ComponentType>): LazyScreen {
  let Loaded: ComponentType | null = null;
  let loading: Promise<void> | null = null;
  const preload = () =>
    (loading ??= load().then((screen) => {
      Loaded = screen;
    }));
  function Screen() {
    if (Loaded === null) use(preload());
    const Current = Loaded as ComponentType;
    return <Current />;
  }
  return Object.assign(Screen, { preload });
}
