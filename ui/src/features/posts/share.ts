// 'Share' on a post card: the device's share sheet when there is one, otherwise the
// social network's post-intent page carrying the permalink, in a new window.

/** The X post-intent address for `permalink`. */
export function shareIntentUrl(permalink: string): string {
  return `https://x.com/intent/post?url=${encodeURIComponent(permalink)}`;
}

/** Shares a post's permalink. */
export function sharePost(post: { title: string; permalink: string }): void {
  if (typeof navigator.share === 'function') {
    navigator.share({ title: post.title, url: post.permalink }).catch((error: unknown) => {
      // Closing the share sheet rejects with AbortError: that is the user's choice, not a failure.
      if ((error as { name?: unknown } | null)?.name !== 'AbortError') console.warn('quire: sharing failed', error);
    });
    return;
  }
  window.open(shareIntentUrl(post.permalink), '_blank', 'noopener,noreferrer');
}
