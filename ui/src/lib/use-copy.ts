import { useState } from 'react';

/** What the owner reads when the browser refused to copy. */
export const copyFailedText = (what: string) => `Copying failed; select the ${what} and copy it yourself.`;

/**
 * A Copy button's state: which of the values was copied last (by key), and whether the last copy
 * failed (the browser may refuse the clipboard).
 */
export function useCopy<K>() {
  const [copied, setCopied] = useState<K | null>(null);
  const [failed, setFailed] = useState(false);
  const copy = async (value: string, key: K) => {
    setFailed(false);
    try {
      await navigator.clipboard.writeText(value);
      setCopied(key);
    } catch (error) {
      console.error('quire: copying failed', error);
      setCopied(null);
      setFailed(true);
    }
  };
  return { copied, failed, copy };
}
