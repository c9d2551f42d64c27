import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixtureRules } from '../test/block-rules-fixture';
import { fixturePostRules } from '../test/tag-rules-fixture';
import { fixtureScheduleRules } from '../test/schedule-rules-fixture';
import { readAppConfig } from './app-config';

function inject(json: string) {
  const script = document.createElement('script');
  script.id = 'quire-config';
  script.type = 'application/json';
  script.textContent = json;
  document.head.append(script);
}

afterEach(() => {
  document.getElementById('quire-config')?.remove();
});

describe('readAppConfig', () => {
  it('reads the JSON the server injects, every field as sent', () => {
    const sent = {
      host: 'blogs.example.com',
      appUrl: 'https://blogs.example.com',
      scheme: 'https',
      providerName: 'Google',
      supportUrl: 'https://ko-fi.com/quire',
      imgurClientId: null,
      emojiCdn: 'https://cdn.example.com/emoji/',
      emojiImages: '/emoji/16.0.1/',
      blockRules: fixtureRules(),
      postRules: fixturePostRules(),
      scheduleRules: fixtureScheduleRules(),
      signups: 'invite',
      contactEmail: 'ops@blogs.example.com',
      termsUrl: '/terms',
      privacyUrl: '/privacy',
      email: true,
    };
    inject(JSON.stringify(sent));
    expect(readAppConfig()).toEqual(sent);
  });

  it('falls back to the page location when the script is missing', () => {
    expect(readAppConfig()).toEqual({
      host: window.location.host,
      appUrl: window.location.origin,
      scheme: 'http',
      providerName: 'Local',
      supportUrl: null,
      imgurClientId: null,
      emojiCdn: null,
      emojiImages: null,
      blockRules: null,
      postRules: null,
      scheduleRules: null,
      signups: 'open',
      contactEmail: null,
      termsUrl: null,
      privacyUrl: null,
      email: false,
    });
  });

  it('shows the email features only when the server says it sends email', () => {
    inject(JSON.stringify({ email: true }));
    expect(readAppConfig().email).toBe(true);
    document.getElementById('quire-config')?.remove();
    inject(JSON.stringify({ email: 'yes' }));
    expect(readAppConfig().email).toBe(false);
  });

  it('takes only a known signup mode and only paths of its own origin for the operator pages', () => {
    inject(JSON.stringify({ signups: 'everyone', termsUrl: '//evil.example/terms', privacyUrl: 'javascript:x' }));
    const config = readAppConfig();
    expect(config.signups).toBe('open');
    expect(config.termsUrl).toBeNull();
    expect(config.privacyUrl).toBeNull();
  });

  it('uses defaults for malformed JSON and for fields of the wrong type', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    inject('{not json');
    expect(readAppConfig().providerName).toBe('Local');
    expect(warn).toHaveBeenCalledOnce();
    document.getElementById('quire-config')?.remove();

    inject(JSON.stringify({ host: 42, providerName: 'Google', supportUrl: '', scheme: 'ftp' }));
    const config = readAppConfig();
    expect(config.host).toBe(window.location.host);
    expect(config.providerName).toBe('Google');
    expect(config.supportUrl).toBeNull();
    expect(config.scheme).toBe('http');
  });

  it('has no block rules unless the server sent a whole, well-formed set', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    inject(JSON.stringify({ providerName: 'Google' }));
    expect(readAppConfig().blockRules).toBeNull();
    expect(warn).not.toHaveBeenCalled();
    document.getElementById('quire-config')?.remove();

    const { maxUrl: _missing, ...partial } = fixtureRules();
    for (const bad of [
      partial,
      { ...fixtureRules(), maxBlocks: 0 },
      { ...fixtureRules(), tweetPrefixes: [] },
      'rules',
    ]) {
      inject(JSON.stringify({ blockRules: bad }));
      expect(readAppConfig().blockRules, JSON.stringify(bad)).toBeNull();
      document.getElementById('quire-config')?.remove();
    }
    expect(warn).toHaveBeenCalledTimes(4);
  });
});
