import { useState } from 'react';
import { appConfig } from '../../config/app-config';
import { cx } from '../../lib/cx';
import type { Favicon } from '../blogs';

/**
 * The emoji a favicon code stands for. Codes are the twemoji names: lowercase hex code points
 * joined by '-', e.g. `1f4dd` or `1f1f8-1f1ea`. A malformed code gives an empty string.
 */
export function emojiOf(code: string): string {
  const points = code.split('-').map((hex) => Number.parseInt(hex, 16));
  if (points.length === 0 || points.some((point) => !Number.isInteger(point) || point < 0 || point > 0x10ffff))
    return '';
  return String.fromCodePoint(...points);
}

/** Where the image of an emoji is: the emoji CDN (--emoji-cdn) or the server's own set; null for none. */
export function emojiImageUrl(code: string): string | null {
  const { emojiCdn, emojiImages } = appConfig();
  const prefix = emojiCdn ?? emojiImages;
  return prefix ? `${prefix}${code}.svg` : null;
}

/**
 * One tab icon: the image of the emoji (the server's Twemoji set, or the emoji CDN's when the
 * server was started with --emoji-cdn), so it looks the same whatever fonts the browser has. An
 * emoji the set has no image of (one newer than the set) is drawn as text. Its accessible name
 * is the emoji itself.
 */
export function FaviconImage({ favicon, className }: { favicon: Favicon; className?: string }) {
  const emoji = emojiOf(favicon.code);
  const src = emojiImageUrl(favicon.code);
  // The image that did not load, so a later code's image is tried again.
  const [missing, setMissing] = useState<string | null>(null);
  if (src && src !== missing) {
    return (
      <img
        className={cx('q-favicon', 'q-favicon--image', className)}
        src={src}
        alt={emoji}
        width={32}
        height={32}
        loading="lazy"
        decoding="async"
        onError={() => setMissing(src)}
      />
    );
  }
  return (
    <span className={cx('q-favicon', className)} role="img" aria-label={emoji}>
      {emoji}
    </span>
  );
}
