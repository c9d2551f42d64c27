// One post that uses what a paragraph and an image can carry, for the tests that write it in the
// editor and read it back (editor Preview, preview link, public page): a bold word, a link inside a
// sentence, a list, a quote, a code block, and a 4×3 image with alt text and a caption.
import { expect, type Locator, type Page } from '@playwright/test';

export const TITLE = 'Harbour days';

export const PARAGRAPH = [
  'Harbour days have a **bold** start, and [the tide tables](https://example.com/tides) say when.',
  '',
  '- ropes',
  '- sails',
  '',
  '> Fair winds.',
  '',
  '```',
  'knots = 12 < 15',
  '```',
].join('\n');

export const ALT = 'A red boat at the quay';
export const CAPTION = 'The Mary Rose, at rest';

/** A 4×3 red PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGM4YaMBRww4OQAZ7g4RX8PtlgAAAABJRU5ErkJggg==',
  'base64',
);

/** The editor's block `n` (1-based). */
export const block = (page: Page, n: number) => page.getByRole('group', { name: new RegExp(`^Block ${n}: `) });

/** In the open editor: the heading and the formatted paragraph, checking the formatting hint. */
export async function writeHeadingAndParagraph(page: Page): Promise<void> {
  await block(page, 1).getByRole('textbox', { name: 'Heading' }).fill(TITLE);
  const paragraph = block(page, 2).getByRole('textbox', { name: 'Paragraph' });
  await expect(paragraph).toHaveAccessibleDescription(/^Markdown: \*\*bold\*\*/);
  await paragraph.fill(PARAGRAPH);
}

/**
 * In the open editor with two blocks: adds the image as block 3, checks that alt text is asked
 * for (gently), gives it with the caption, and leaves 'Edit blocks'.
 */
export async function addDescribedImage(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Edit blocks' }).click();
  await page.getByRole('button', { name: 'Add block at the end' }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('dialog', { name: 'Add a block' }).getByRole('button', { name: 'Image', exact: true }).click();
  await (await chooser).setFiles({ name: 'boat.png', mimeType: 'image/png', buffer: PNG });
  const alt = block(page, 3).getByRole('textbox', { name: 'Alt text' });
  await expect(alt).toHaveAccessibleDescription(/No alt text yet/);
  await alt.fill(ALT);
  await block(page, 3).getByRole('textbox', { name: 'Caption' }).fill(CAPTION);
  await page.getByRole('button', { name: 'Edit blocks' }).click();
}

/** What a reader sees of the post in `post`: the editor's Preview, a preview link or the blog. */
export async function expectHarbourPost(post: Locator): Promise<void> {
  await expect(post.getByRole('heading', { level: 1 })).toHaveText(TITLE);
  await expect(post.locator('strong')).toHaveText('bold');
  await expect(post.getByRole('link', { name: 'the tide tables' })).toHaveAttribute(
    'href',
    'https://example.com/tides',
  );
  await expect(post.locator('p', { hasText: 'say when.' })).toContainText('and the tide tables say when.');
  await expect(post.locator('ul:not(.tags) > li')).toHaveText(['ropes', 'sails']);
  await expect(post.locator('blockquote')).toHaveText('Fair winds.');
  await expect(post.locator('pre code')).toHaveText('knots = 12 < 15\n');
  const image = post.getByRole('img', { name: ALT });
  await expect(image).toHaveAttribute('width', '4');
  await expect(image).toHaveAttribute('height', '3');
  await expect(post.locator('figure figcaption')).toHaveText(CAPTION);
}
