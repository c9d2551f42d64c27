// The config is read once per test file, so the CDN case has a file of its own.
import { render, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectConfig } from '../../test/fake-api';
import { emojiOf, FaviconImage } from './favicon-image';

beforeAll(() => injectConfig({ host: 'localhost:8080', emojiCdn: 'https://cdn.example/twemoji/' }));
afterAll(() => document.getElementById('quire-config')?.remove());

describe('emojiOf', () => {
  it('turns twemoji codes back into the emoji', () => {
    expect(emojiOf('1f4dd')).toBe('📝');
    expect(emojiOf('1f1f8-1f1ea')).toBe('🇸🇪');
    expect(emojiOf('2764-fe0f')).toBe('❤️');
    expect(emojiOf('zz')).toBe('');
  });
});

describe('FaviconImage with an emoji CDN', () => {
  it("shows the CDN's image of the code, named by the emoji", () => {
    render(<FaviconImage favicon={{ id: 1, code: '1f1f8-1f1ea' }} />);
    const image = screen.getByRole('img', { name: '🇸🇪' });
    expect(image.tagName).toBe('IMG');
    expect(image).toHaveAttribute('src', 'https://cdn.example/twemoji/1f1f8-1f1ea.svg');
  });
});
