// The public menu page's look: one inline style sheet and an inline icon, because the page's policy
// loads nothing else (no font or style files; system fonts only). Colours meet WCAG AA on their
// backgrounds: ink and muted text on paper and white, badge text on its badge.

/**
 * Room kept free under the last dish so it can scroll clear of the concierge launcher: the launcher's
 * footprint (its bottom offset plus its height, set in packages/embed/src/concierge.ts) and a gap.
 * e2e/src/menu-page.test.ts checks the two agree at phone, tablet and desktop widths.
 */
const LAUNCHER_CLEARANCE = { narrow: '80px', wide: '96px' };

export const MENU_PAGE_CSS = `
:root { color-scheme: light; --ink: #1f1a14; --muted: #5b5248; --paper: #faf7f2; --line: #e6ddd0; --accent: #9a3412;
  --serif: ui-serif, Georgia, Cambria, "Times New Roman", serif; }
* { box-sizing: border-box; }
body { margin: 0; padding-bottom: ${LAUNCHER_CLEARANCE.narrow}; background: var(--paper); color: var(--ink);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; -webkit-text-size-adjust: 100%; }
.wrap { max-width: 1200px; margin: 0 auto; padding: 0 16px; }
.masthead { background: var(--ink); color: #f6efe4; padding: 40px 0 28px; }
.eyebrow { margin: 0 0 6px; font-size: 13px; font-weight: 600; letter-spacing: .16em; text-transform: uppercase; color: #dcc9ad; }
h1 { margin: 0; font: 700 clamp(2rem, 1.5rem + 2.5vw, 3.25rem)/1.1 var(--serif); overflow-wrap: anywhere; }
.notes { max-width: 62ch; margin: 12px 0 0; color: #ece3d5; }
.sections { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 24px; }
.sections a { padding: 6px 14px; border: 1px solid #6b5f51; border-radius: 999px; color: #f6efe4; text-decoration: none; font-size: 15px; }
.sections a:hover, .sections a:focus-visible { background: #f6efe4; color: var(--ink); }
.menu-section { scroll-margin-top: 16px; }
h2 { display: flex; align-items: center; gap: 16px; margin: 40px 0 16px; font: 700 1.75rem/1.2 var(--serif); overflow-wrap: anywhere; }
h2::after { content: ""; flex: 1; height: 1px; background: var(--line); }
/* Cards keep their own height: a dish without a 3D view is not stretched to its neighbour's. */
.dishes { display: grid; gap: 20px; align-items: start; grid-template-columns: repeat(auto-fill, minmax(min(100%, 300px), 1fr)); }
.dish { display: flex; flex-direction: column; overflow: hidden; background: #fff; border: 1px solid var(--line); border-radius: 16px;
  box-shadow: 0 1px 2px rgba(31, 26, 20, .06); scroll-margin-top: 16px; }
.dish:target { outline: 3px solid var(--accent); outline-offset: 2px; }
/* Sized before the embed script runs, so the page does not move when the poster arrives. */
service-viewer { display: block; width: 100%; aspect-ratio: 1 / 1; border-radius: 0; background: #f3eee6; }
.dish-body { display: flex; flex-direction: column; gap: 8px; padding: 16px 18px 18px; }
.dish-head { display: flex; align-items: baseline; justify-content: space-between; gap: 12px; }
.dish h3 { margin: 0; font-size: 1.125rem; line-height: 1.3; overflow-wrap: anywhere; }
.price { flex: none; font-weight: 700; color: var(--accent); font-variant-numeric: tabular-nums; }
.description { margin: 0; color: var(--muted); font-size: .95rem; overflow-wrap: anywhere; }
.badges { display: flex; flex-wrap: wrap; gap: 6px; margin: 2px 0 0; padding: 0; list-style: none; }
.badge { padding: 3px 10px; border-radius: 8px; font-size: .8125rem; font-weight: 500; overflow-wrap: anywhere; }
.diet { background: #e5f1e7; color: #1d5430; }
.allergens { background: #fcefdc; color: #7a3606; }
.empty, .colophon { color: var(--muted); }
.colophon { margin-top: 48px; padding-top: 16px; border-top: 1px solid var(--line); font-size: .875rem; }
@media (min-width: 601px) {
  body { padding-bottom: ${LAUNCHER_CLEARANCE.wide}; }
  .wrap { padding: 0 32px; }
  .masthead { padding: 64px 0 36px; }
  .dishes { gap: 24px; }
}
`;

// A plate on the masthead's ink, as a data: URL: the policy's img-src allows data:, and a page with
// its own icon spares the browser asking for /favicon.ico (which would be a 404).
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#1f1a14"/>' +
  '<circle cx="16" cy="16" r="11" fill="#f6efe4"/><circle cx="16" cy="16" r="6.5" fill="#c2410c"/></svg>';
export const FAVICON_URL = `data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}`;
