/*
 * The page the server sent already drawn (decision 065): `/` and `/login` arrive as HTML in
 * #prerendered-page, beside the empty #root, so that a phone shows them before any JavaScript has
 * run. React renders into #root as usual, which stays hidden while the copy shows (styles.css), and
 * the page that replaces the copy removes it from a layout effect, before the browser paints again.
 * Kept small: the landing page's first JavaScript has a budget (tests/bundle).
 */
export const PRERENDERED_PAGE_ID = 'prerendered-page';

/** The drawn copy, while it shows; `dataset.path` says which page it is. */
export function prerenderedPage(): HTMLElement | null {
  return document.getElementById(PRERENDERED_PAGE_ID);
}
