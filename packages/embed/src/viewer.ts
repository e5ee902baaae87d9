import { element, setAttributes } from './dom.js';
import { apiBaseOf } from './script-base.js';

// <service-viewer>: a dish at true size (spec 4.8). A poster first; the 3D runtime (model-viewer, a
// separate file) loads only after a tap, unless `autoload`. AR: Quick Look on iOS, Scene Viewer on
// Android, a prompt to open the real browser inside in-app browsers.

interface ViewerItem {
  itemId: string;
  name: string;
  thumbnailUrl: string | null;
  usdzUrl: string | null;
  glbUrl: string | null;
  expiresAt: string;
  testMode: boolean;
  viewToken?: string;
}

const SCRIPT = document.currentScript as HTMLScriptElement | null;
const API_BASE = apiBaseOf(SCRIPT);
// The runtime and the sample dish sit beside this script on the embed host.
const ASSET_BASE = SCRIPT?.src ? new URL('.', SCRIPT.src).href : `${API_BASE}/embed/`;
/** Fresh URLs are fetched this long before the current ones expire (at half their life, if shorter). */
const REFRESH_MARGIN_MS = 30_000;
/** When this browser's clock says the URLs expired already (it runs fast), the next refresh waits this long. */
const SKEWED_CLOCK_REFRESH_MS = 60_000;
/** A refresh that failed (offline, a 429) is tried again after this, doubling up to the most. */
const RETRY_FIRST_MS = 15_000;
const RETRY_MOST_MS = 5 * 60_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

const STYLE = `
:host { all: initial; display: block; position: relative; width: 100%; aspect-ratio: 1 / 1; font: 14px/1.4 system-ui, sans-serif;
  color: #1d1d1f; background: #f5f5f7; border-radius: 12px; overflow: hidden; }
.stage, model-viewer { position: absolute; inset: 0; width: 100%; height: 100%; }
.poster { width: 100%; height: 100%; object-fit: cover; display: block; }
.actions { position: absolute; left: 0; right: 0; bottom: 12px; display: flex; justify-content: center; gap: 8px; flex-wrap: wrap; }
button, .ar { border: 0; border-radius: 999px; padding: 8px 14px; background: #1d1d1f; color: #fff; font: inherit; cursor: pointer; text-decoration: none; }
.badge { position: absolute; top: 10px; left: 10px; font-size: 10px; font-weight: 700; letter-spacing: .05em; background: #ffcc00;
  padding: 2px 6px; border-radius: 4px; z-index: 1; }
.message { position: absolute; inset: 0; pointer-events: none; display: flex; align-items: center; justify-content: center; padding: 16px; text-align: center; color: #6e6e73; }
.hint { position: absolute; left: 12px; right: 12px; bottom: 56px; text-align: center; font-size: 12px; background: rgba(255,255,255,.9);
  border-radius: 8px; padding: 6px; }
`;

type Platform = 'ios' | 'android' | 'in-app' | 'desktop';

/** Which AR affordance this browser gets. In-app web views cannot launch AR, so they are asked to leave. */
export function platformOf(userAgent: string): Platform {
  if (/FBAN|FBAV|Instagram|Line\/|WhatsApp|Snapchat|TikTok|musical_ly|Twitter|Pinterest|GSA\//i.test(userAgent)) return 'in-app';
  if (/iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && 'ontouchend' in document)) return 'ios';
  if (/Android/.test(userAgent)) return 'android';
  return 'desktop';
}

/** Scene Viewer intent built from the GLB URL, falling back to the page itself; the dish keeps its true size. */
function sceneViewerIntent(glbUrl: string, title: string): string {
  const params = new URLSearchParams({ file: glbUrl, mode: 'ar_preferred', title, resizable: 'false' });
  const fallback = encodeURIComponent(location.href);
  return `intent://arvr.google.com/scene-viewer/1.0?${params}#Intent;scheme=https;package=com.google.ar.core;action=android.intent.action.VIEW;S.browser_fallback_url=${fallback};end;`;
}

/** The AR link's target for this platform, or null when it has none. Quick Look keeps the dish at true size. */
function arHref(platform: Platform, item: ViewerItem): string | null {
  if (platform === 'ios' && item.usdzUrl) return `${item.usdzUrl}#allowsContentScaling=0`;
  if (platform === 'android' && item.glbUrl) return sceneViewerIntent(item.glbUrl, item.name);
  return null;
}

/**
 * When to fetch fresh URLs: before these expire; never when there are none (no model yet). URLs that
 * look expired the moment they arrive mean this browser's clock runs fast: then not at once, again and again.
 */
function refreshDelay(item: ViewerItem, justFetched: boolean): number | null {
  if (!item.glbUrl && !item.usdzUrl) return null;
  const left = Date.parse(item.expiresAt) - Date.now();
  if (left > 0) return left - Math.min(REFRESH_MARGIN_MS, left / 2);
  return justFetched ? SKEWED_CLOCK_REFRESH_MS : 0;
}

let runtime: Promise<unknown> | null = null;
/** model-viewer, once per page: a host page may have defined it already, and a failed load is tried again. */
function loadRuntime(): Promise<unknown> {
  if (customElements.get('model-viewer')) return Promise.resolve();
  runtime ??= import(/* @vite-ignore */ `${ASSET_BASE}model-viewer.v1.js`).catch((err: unknown) => {
    runtime = null;
    throw err;
  });
  return runtime;
}

type Fetched = { item: ViewerItem } | { problem: string };

class ServiceViewer extends HTMLElement {
  private root!: ShadowRoot;
  private itemId = '';
  private key = '';
  private demo: string | null = null;
  private autoload = false;
  private item: ViewerItem | null = null;
  private platform: Platform = 'desktop';
  private arLink: HTMLAnchorElement | null = null;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private failedRefreshes = 0;
  /** Aborts this element's requests once it leaves the page. */
  private requests = new AbortController();

  connectedCallback(): void {
    if (this.root) {
      // Back on the page (moved, or re-attached by a framework): carry on from where it was.
      this.requests = new AbortController();
      if (this.demo) return;
      if (this.item) this.scheduleRefresh(refreshDelay(this.item, false));
      else if (this.key && this.itemId) void this.load();
      return;
    }
    // Attributes are read once, here; unknown ones are ignored.
    this.itemId = this.getAttribute('item-id') ?? this.getAttribute('item') ?? '';
    this.key = this.getAttribute('publishable-key') ?? this.getAttribute('data-key') ?? this.getAttribute('key') ?? '';
    this.demo = this.hasAttribute('demo') ? this.getAttribute('demo') || 'desktop' : null;
    this.autoload = this.hasAttribute('autoload');
    this.root = this.attachShadow({ mode: 'open' });
    this.root.append(element('style', undefined, STYLE));
    if (this.demo) {
      this.show({
        itemId: 'demo',
        name: 'Wood-fired margherita',
        thumbnailUrl: `${ASSET_BASE}sample-dish.png`,
        glbUrl: `${ASSET_BASE}sample-dish.glb`,
        usdzUrl: `${ASSET_BASE}sample-dish.usdz`,
        expiresAt: '9999-12-31T00:00:00.000Z',
        testMode: false,
      });
      return;
    }
    if (!this.key) return this.message('This dish viewer needs a publishable key (publishable-key="svc_pk_…").');
    if (!this.itemId) return this.message('This dish viewer needs an item id (item-id="itm_…").');
    void this.load();
  }

  private async load(): Promise<void> {
    const fetched = await this.fetchItem();
    if (!this.isConnected) return;
    if ('problem' in fetched) return this.message(fetched.problem);
    this.root.querySelector('.message')?.remove();
    this.show(fetched.item);
    this.scheduleRefresh();
  }

  disconnectedCallback(): void {
    clearTimeout(this.refreshTimer);
    this.requests.abort();
  }

  private message(text: string): void {
    this.root.querySelector('.message')?.remove();
    this.root.append(element('div', 'message', text));
  }

  /** An expired URL makes the load fail: fetch fresh ones once and try again. */
  private async retryWithFreshUrls(viewer: HTMLElement): Promise<void> {
    if (this.demo || viewer.dataset.retried) return;
    viewer.dataset.retried = 'true';
    const fetched = await this.fetchItem();
    if ('item' in fetched) this.useUrls(fetched.item);
  }

  /** The item with fresh signed URLs; the view token of the first load keeps refreshes uncounted. */
  private async fetchItem(): Promise<Fetched> {
    const view = this.item?.viewToken ? `?view=${encodeURIComponent(this.item.viewToken)}` : '';
    try {
      const res = await fetch(`${API_BASE}/v1/partner/embed/items/${encodeURIComponent(this.itemId)}${view}`, {
        headers: { authorization: `Bearer ${this.key}` },
        signal: this.requests.signal,
      });
      const body = (await res.json()) as { data?: ViewerItem; error?: { code: string; message: string } };
      if (res.ok && body.data) return { item: body.data };
      const refused = body.error?.code === 'origin_not_allowed';
      return { problem: refused ? 'This page is not allowed to show this dish.' : 'This dish is not available.' };
    } catch {
      return { problem: 'The dish could not be loaded.' };
    }
  }

  /**
   * Signed URLs expire: fetch fresh ones shortly before, for the 3D view and the AR link. A refresh that
   * fails leaves the dish as it is shown and is tried again later; nothing runs once the element is gone.
   */
  private scheduleRefresh(delay = this.item && refreshDelay(this.item, true)): void {
    clearTimeout(this.refreshTimer);
    if (delay === null || delay === undefined || !this.isConnected) return;
    // Past setTimeout's 32-bit range it would fire at once.
    this.refreshTimer = setTimeout(() => void this.refresh(), Math.min(delay, MAX_TIMER_MS));
  }

  private async refresh(): Promise<void> {
    const fetched = await this.fetchItem();
    if (!this.isConnected) return;
    if ('problem' in fetched) {
      this.scheduleRefresh(Math.min(RETRY_FIRST_MS * 2 ** this.failedRefreshes++, RETRY_MOST_MS));
      return;
    }
    this.failedRefreshes = 0;
    this.useUrls(fetched.item);
    this.scheduleRefresh();
  }

  /** Fresh URLs: kept for the next 3D view, and handed to the one open and to the AR link. */
  private useUrls(item: ViewerItem): void {
    this.item = item;
    const viewer = this.root.querySelector('model-viewer');
    if (viewer && item.glbUrl) viewer.setAttribute('src', item.glbUrl);
    if (viewer && item.usdzUrl) viewer.setAttribute('ios-src', item.usdzUrl);
    const href = arHref(this.platform, item);
    if (this.arLink && href) this.arLink.href = href;
  }

  private show(item: ViewerItem): void {
    this.item = item;
    const stage = element('div', 'stage');
    if (item.thumbnailUrl) {
      const poster = element('img', 'poster');
      poster.src = item.thumbnailUrl;
      poster.alt = item.name;
      stage.append(poster);
    }
    if (item.testMode) stage.append(element('span', 'badge', 'TEST MODE'));
    const actions = element('div', 'actions');
    if (item.glbUrl) {
      const open = element('button', undefined, 'View in 3D');
      open.addEventListener('click', () => void this.open3d(stage));
      actions.append(open);
    }
    this.appendAr(stage, actions, item);
    stage.append(actions);
    this.root.querySelector('.stage')?.remove();
    this.root.append(stage);
    if (this.autoload && item.glbUrl) void this.open3d(stage);
  }

  private appendAr(stage: HTMLElement, actions: HTMLElement, item: ViewerItem): void {
    const platform = (this.platform = this.demo === 'phone' ? 'ios' : platformOf(navigator.userAgent));
    const href = arHref(platform, item);
    this.arLink = null;
    if (platform === 'ios' && href) {
      // Quick Look opens from a rel="ar" link whose first child is an image.
      const link = (this.arLink = element('a', 'ar'));
      link.rel = 'ar';
      link.href = href;
      const image = element('img');
      image.alt = '';
      image.width = 1;
      image.height = 1;
      image.src = item.thumbnailUrl ?? 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
      link.append(image, document.createTextNode('View on your table'));
      actions.append(link);
    } else if (platform === 'android' && href) {
      const link = (this.arLink = element('a', 'ar', 'View on your table'));
      link.href = href;
      actions.append(link);
    } else if (platform === 'in-app') {
      stage.append(element('div', 'hint', 'Open this page in your browser to see the dish on your table.'));
    }
  }

  private async open3d(stage: HTMLElement): Promise<void> {
    if (!this.item?.glbUrl || this.root.querySelector('model-viewer')) return;
    try {
      await loadRuntime();
    } catch {
      return this.message('The 3D viewer could not be loaded.');
    }
    this.root.querySelector('.message')?.remove();
    const viewer = document.createElement('model-viewer');
    viewer.setAttribute('src', this.item.glbUrl);
    if (this.item.usdzUrl) viewer.setAttribute('ios-src', this.item.usdzUrl);
    viewer.setAttribute('alt', this.item.name);
    setAttributes(viewer, {
      'camera-controls': '',
      'touch-action': 'pan-y',
      ar: '',
      'ar-modes': 'scene-viewer quick-look',
      'ar-scale': 'fixed',
      // A diner's view, 40° above the table like the thumbnails (so the poster opens into the same
      // picture), with the dish filling the frame: at 105% the widest demo dishes (a 34 cm pizza board,
      // a salad bowl) keep a small margin. The neutral environment is generated in the page, so nothing
      // is fetched from another origin (the CSP would block it).
      'camera-orbit': '0deg 50deg 105%',
      'field-of-view': '30deg',
      'environment-image': 'neutral',
      'shadow-intensity': '1',
    });
    viewer.addEventListener('error', () => void this.retryWithFreshUrls(viewer));
    stage.querySelector('.poster')?.remove();
    stage.querySelector('.actions button')?.remove();
    stage.prepend(viewer);
  }
}

if (!customElements.get('service-viewer')) customElements.define('service-viewer', ServiceViewer);
