// Formatted paragraphs and described images, in a real browser against the real server: a
// blogger writes a bold word, a link inside a sentence, a list, a quote and a code block, adds an
// image with alt text and a caption, previews the post, publishes it and reads it on the blog.
// A quire of its own, so its data is this file's alone.
import { expect, test, type Page } from '@playwright/test';
import { watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';

const app = ownQuire();
const at = (pathname: string) => `${app().baseUrl}${pathname}`;

/** A 4×3 red PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGM4YaMBRww4OQAZ7g4RX8PtlgAAAABJRU5ErkJggg==',
  'base64',
);

const PARAGRAPH = [
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

const block = (page: Page, n: number) => page.getByRole('group', { name: new RegExp(`^Block ${n}: `) });

test('a formatted paragraph and a described image, previewed, published and read on the blog', async ({ page }) => {
  const problems = watchForErrors(page);
  await page.goto(at('/signup'));
  await signInWithLocalIssuer(page, 'Signup with Local', 'markdown@example.com');
  await createBlog(page, 'markdown');
  await page.getByRole('link', { name: 'New Post' }).click();

  await test.step('write, with the formatting hint under the paragraph', async () => {
    await block(page, 1).getByRole('textbox', { name: 'Heading' }).fill('Harbour days');
    const paragraph = block(page, 2).getByRole('textbox', { name: 'Paragraph' });
    await expect(paragraph).toHaveAccessibleDescription(/^Markdown: \*\*bold\*\*/);
    await paragraph.fill(PARAGRAPH);
  });

  await test.step('an image, its alt text asked for gently, then given with a caption', async () => {
    await page.getByRole('button', { name: 'Edit blocks' }).click();
    await page.getByRole('button', { name: 'Add block at the end' }).click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('dialog', { name: 'Add a block' }).getByRole('button', { name: 'Image', exact: true }).click();
    await (await chooser).setFiles({ name: 'boat.png', mimeType: 'image/png', buffer: PNG });
    const alt = block(page, 3).getByRole('textbox', { name: 'Alt text' });
    await expect(alt).toHaveAccessibleDescription(/No alt text yet/);
    await alt.fill('A red boat at the quay');
    await block(page, 3).getByRole('textbox', { name: 'Caption' }).fill('The Mary Rose, at rest');
    await page.getByRole('button', { name: 'Edit blocks' }).click();
  });

  await test.step('Preview shows what readers will see', async () => {
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('article', { name: 'Preview' });
    await expect(preview.getByRole('heading', { level: 1 })).toHaveText('Harbour days');
    await expect(preview.locator('strong')).toHaveText('bold');
    await expect(preview.getByRole('link', { name: 'the tide tables' })).toHaveAttribute('href', 'https://example.com/tides');
    await expect(preview.getByRole('listitem')).toHaveText(['ropes', 'sails']);
    await expect(preview.locator('blockquote')).toHaveText('Fair winds.');
    await expect(preview.locator('pre code')).toHaveText('knots = 12 < 15\n');
    await expect(preview.getByRole('img', { name: 'A red boat at the quay' })).toHaveAttribute('width', '4');
    await expect(preview.locator('figcaption')).toHaveText('The Mary Rose, at rest');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(preview).toHaveCount(0);
    await expect(block(page, 2).getByRole('textbox', { name: 'Paragraph' })).toHaveValue(PARAGRAPH);
  });

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(at('/d/posts'));

  await test.step('the public page shows the formatting, the alt text, the caption and the size', async () => {
    const opened = page.waitForEvent('popup');
    await page.getByRole('link', { name: 'Read', exact: true }).first().click();
    const reader = await opened;
    const post = reader.locator('article.post');
    await expect(post.getByRole('heading', { level: 1 })).toHaveText('Harbour days');
    await expect(post.locator('strong')).toHaveText('bold');
    const link = post.getByRole('link', { name: 'the tide tables' });
    await expect(link).toHaveAttribute('href', 'https://example.com/tides');
    await expect(link).toHaveAttribute('rel', 'nofollow ugc noopener');
    await expect(post.getByRole('listitem')).toHaveText(['ropes', 'sails']);
    await expect(post.locator('blockquote')).toHaveText('Fair winds.');
    await expect(post.locator('pre code')).toHaveText('knots = 12 < 15\n');
    const image = post.getByRole('img', { name: 'A red boat at the quay' });
    await expect(image).toHaveAttribute('width', '4');
    await expect(image).toHaveAttribute('height', '3');
    await expect(post.locator('figure figcaption')).toHaveText('The Mary Rose, at rest');
    await reader.close();
  });
  expect(problems).toEqual([]);
});
