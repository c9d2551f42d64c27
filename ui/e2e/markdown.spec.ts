// Formatted paragraphs and described images, in a real browser against the real server: a
// blogger writes a bold word, a link inside a sentence, a list, a quote and a code block, adds an
// image with alt text and a caption, previews the post, publishes it and reads it on the blog.
// A quire of its own, so its data is this file's alone.
import { expect, test } from '@playwright/test';
import { watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import {
  addDescribedImage,
  block,
  expectHarbourPost,
  PARAGRAPH,
  writeHeadingAndParagraph,
} from './support/harbour-post';
import { ownQuire } from './support/own-quire';

const app = ownQuire();
const at = (pathname: string) => `${app().baseUrl}${pathname}`;

test('a formatted paragraph and a described image, previewed, published and read on the blog', async ({ page }) => {
  const problems = watchForErrors(page);
  await page.goto(at('/signup'));
  await signInWithLocalIssuer(page, 'Signup with Local', 'markdown@example.com');
  await createBlog(page, 'markdown');
  await page.getByRole('link', { name: 'New Post' }).click();

  await test.step('write, with the formatting hint under the paragraph', async () => {
    await writeHeadingAndParagraph(page);
  });

  await test.step('an image, its alt text asked for gently, then given with a caption', async () => {
    await addDescribedImage(page);
  });

  await test.step('Preview shows what readers will see', async () => {
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByTitle('Preview of the post as readers will see it');
    await expectHarbourPost(preview.contentFrame().locator('article.post'));
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
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
    await expectHarbourPost(post);
    await expect(post.getByRole('link', { name: 'the tide tables' })).toHaveAttribute('rel', 'nofollow ugc noopener');
    await reader.close();
  });
  expect(problems).toEqual([]);
});
