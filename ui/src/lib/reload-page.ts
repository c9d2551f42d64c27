/** Reloads the whole page (its own module so component tests can replace it; jsdom cannot reload). */
export function reloadPage(): void {
  window.location.reload();
}
