import { describe, expect, it } from 'vitest';
import type { Block } from './api';
import { blockProblem, bodyProblem, imagePrefix, validateBlocks, validationRules } from './validation';

// The server's rules (src/domain/blocks.rs), one message per case, as the server words them.
const rules = validationRules({ appUrl: 'http://localhost:8080', imgurClientId: null });
const problem = (block: Block) => blockProblem(block, rules);

const heading = (text: string): Block => ({ type: 'heading', value: { text } });
const paragraph = (text: string): Block => ({ type: 'paragraph', value: { text } });
const link = (url: string, title = 'Text'): Block => ({ type: 'link', value: { url, title } });
const image = (url: string): Block => ({ type: 'image', value: { url } });
const spotify = (url: string): Block => ({ type: 'spotify', value: { url } });
const tweet = (url: string): Block => ({ type: 'tweet', value: { url } });

describe('block validation', () => {
  it('refuses blank headings and paragraphs, white space included', () => {
    expect(problem(heading(''))).toBe("Can't be blank");
    expect(problem(heading(' \t\n\u00a0\u3000'))).toBe("Can't be blank");
    expect(problem(paragraph('   '))).toBe("Can't be blank");
    expect(problem(heading('Hello'))).toBeNull();
    expect(problem(paragraph('  a  '))).toBeNull();
  });

  it('limits headings to 300 and paragraphs to 20000 characters, counting characters, not UTF-16 units', () => {
    expect(problem(heading('h'.repeat(300)))).toBeNull();
    expect(problem(heading('h'.repeat(301)))).toBe('Should be at most 300 characters');
    expect(problem(heading('😀'.repeat(300)))).toBeNull(); // 600 UTF-16 units, 300 characters
    expect(problem(paragraph('p'.repeat(20_000)))).toBeNull();
    expect(problem(paragraph('p'.repeat(20_001)))).toBe('Should be at most 20000 characters');
  });

  it('wants link URLs that are not blank and start with http:// or https://', () => {
    expect(problem(link(''))).toBe("Can't be blank");
    expect(problem(link('   '))).toBe("Can't be blank");
    expect(problem(link('ftp://example.com'))).toBe('Should start with http:// or https://');
    expect(problem(link('javascript:alert(1)'))).toBe('Should start with http:// or https://');
    expect(problem(link('example.com'))).toBe('Should start with http:// or https://');
    expect(problem(link('http://example.com'))).toBeNull();
    expect(problem(link('https://example.com/a?b=c', ''))).toBeNull();
    expect(problem(link('https://example.com', 't'.repeat(2049)))).toBe('Should be at most 2048 characters');
  });

  it("wants image URLs from this server's /media/ without an image host, and from the host with one", () => {
    expect(imagePrefix({ appUrl: 'http://localhost:8080', imgurClientId: null })).toBe('http://localhost:8080/media/');
    expect(imagePrefix({ appUrl: 'https://quire.example', imgurClientId: 'abc123' })).toBe('https://i.imgur.com/');
    expect(problem(image(''))).toBe("Can't be blank");
    expect(problem(image('https://evil.example/x.png'))).toBe('Should start with http://localhost:8080/media/');
    expect(problem(image('http://localhost:8080/media/abc.png'))).toBeNull();

    const imgur = validationRules({ appUrl: 'http://localhost:8080', imgurClientId: 'abc123' });
    expect(blockProblem(image('http://localhost:8080/media/abc.png'), imgur)).toBe(
      'Should start with https://i.imgur.com/',
    );
    expect(blockProblem(image('https://i.imgur.com/abc.png'), imgur)).toBeNull();
  });

  it('wants spotify URLs from open.spotify.com', () => {
    expect(problem(spotify(''))).toBe("Can't be blank");
    expect(problem(spotify('https://spotify.com/track/1'))).toBe('Should start with https://open.spotify.com/');
    expect(problem(spotify('http://open.spotify.com/track/1'))).toBe('Should start with https://open.spotify.com/');
    expect(problem(spotify('https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC'))).toBeNull();
  });

  it('wants tweet URLs from twitter.com or x.com', () => {
    expect(problem(tweet(' '))).toBe("Can't be blank");
    expect(problem(tweet('https://facebook.com/x'))).toBe('Should start with https://twitter.com/ or https://x.com/');
    expect(problem(tweet('https://x.com/jack/status/20'))).toBeNull();
    expect(problem(tweet('https://twitter.com/jack/status/20'))).toBeNull();
  });

  it('limits every URL to 2048 characters', () => {
    const long = `https://example.com/${'a'.repeat(2048)}`;
    expect(problem(link(long))).toBe('Should be at most 2048 characters');
    expect(problem(spotify(`https://open.spotify.com/${'a'.repeat(2048)}`))).toBe('Should be at most 2048 characters');
    // 'https://x.com/' is 14 characters: 2048 in all is fine, 2049 is not.
    expect(problem(tweet(`https://x.com/${'a'.repeat(2034)}`))).toBeNull();
    expect(problem(tweet(`https://x.com/${'a'.repeat(2035)}`))).toBe('Should be at most 2048 characters');
  });

  it('refuses URLs with white space, control characters or quotes, after the prefix rule', () => {
    for (const bad of [
      'https://e.com/a b',
      'https://e.com/"x',
      'https://e.com/<x',
      'https://e.com/x>',
      'https://e.com/\\x',
      'https://e.com/`x',
      'https://e.com/\u0007',
      'https://e.com/\u0085',
      'https://e.com/\u2003',
    ]) {
      expect(problem(link(bad)), JSON.stringify(bad)).toBe('Should be a URL without spaces or quotes');
    }
    // A single quote is allowed, as on the server.
    expect(problem(link("https://e.com/it's"))).toBeNull();
    // The prefix rule comes first.
    expect(problem(link('ftp://e.com/a b'))).toBe('Should start with http:// or https://');
    expect(problem(spotify('https://open.spotify.com/a b'))).toBe('Should be a URL without spaces or quotes');
  });

  it('reports every failing block at its index and can leave one index out', () => {
    const blocks = [
      heading('  '),
      paragraph('fine'),
      link('ftp://x'),
      image('https://evil.example/x.png'),
      spotify(''),
      tweet('https://facebook.com/x'),
    ];
    expect(validateBlocks(blocks, rules)).toEqual({
      0: "Can't be blank",
      2: 'Should start with http:// or https://',
      3: 'Should start with http://localhost:8080/media/',
      4: "Can't be blank",
      5: 'Should start with https://twitter.com/ or https://x.com/',
    });
    expect(validateBlocks(blocks, rules, 4)).not.toHaveProperty('4');
    expect(Object.keys(validateBlocks(blocks, rules, 4))).toEqual(['0', '2', '3', '5']);
    expect(validateBlocks([heading('ok')], rules)).toEqual({});
  });

  it('wants at least one and at most 500 blocks', () => {
    expect(bodyProblem([])).toBe('A post needs at least one block');
    expect(bodyProblem(new Array(500).fill(heading('x')))).toBeNull();
    expect(bodyProblem(new Array(501).fill(heading('x')))).toBe('A post can have at most 500 blocks');
  });
});
