import { appConfig } from '../../config/app-config';
import { cx } from '../../lib/cx';
import type { Favicon } from '../blogs';

/**
 * The emoji a favicon code stands for. Codes are the twemoji names: lowercase hex code points
 * joined by '-', e.g. `1f4dd` or `1f1f8-1f1ea`. A malformed code gives an empty string.
 */
export function emojiOf(code: string): string {
  const points = code.split('-').map((hex) => Number.parseInt(hex, 16));
  if (points.length === 0 || points.some((point) => !Number.isInteger(point) || point < 0 || point > 0x10ffff)) return '';
  return String.fromCodePoint(...points);
}

/**
 * One tab icon: the emoji drawn as text by default, or the emoji CDN's image of it when the server
 * was started with --emoji-cdn. Its accessible name is the emoji itself.
 */
export function FaviconImage({ favicon, className }: { favicon: Favicon; className?: string }) {
  const emoji = emojiOf(favicon.code);
  const cdn = appConfig().emojiCdn;
  if (cdn) {
    return (
      <img
        className={cx('q-favicon', 'q-favicon--image', className)}
        src={`${cdn}${favicon.code}.svg`}
        alt={emoji}
        width={32}
        height={32}
        loading="lazy"
        decoding="async"
      />
    );
  }
  return (
    <span className={cx('q-favicon', className)} role="img" aria-label={emoji}>
      {emoji}
    </span>
  );
}
