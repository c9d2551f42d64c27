import { useCallback, useEffect, useState, type RefObject } from 'react';

/** Where the keyboard focus goes after a change: a block's first field, or one of its controls. */
export interface FocusRequest {
  /** The block's key (its `data-block-key`). */
  key: string;
  /** Move up or down; when that one is disabled (the block reached an end), the other. */
  control?: 'up' | 'down';
}

/**
 * Moves the focus to a block inside `list` once the change that needs it has rendered: a new
 * block, a moved one, the first block with a message. Returns the function that asks for it.
 */
export function useBlockFocus(list: RefObject<HTMLElement | null>): (request: FocusRequest) => void {
  const [request, setRequest] = useState<FocusRequest | null>(null);

  // Runs after the dialog gave focus back to its opener, so the new target wins.
  useEffect(() => {
    if (!request) return;
    const block = list.current?.querySelector<HTMLElement>(`[data-block-key="${request.key}"]`);
    if (!block) return;
    const control = (name: string) =>
      block.querySelector<HTMLButtonElement>(`button[data-control="${name}"]:not(:disabled)`);
    const target = request.control
      ? (control(request.control) ?? control(request.control === 'up' ? 'down' : 'up'))
      : block.querySelector<HTMLElement>('input, textarea');
    target?.focus();
  }, [request, list]);

  return useCallback((next: FocusRequest) => setRequest(next), []);
}
