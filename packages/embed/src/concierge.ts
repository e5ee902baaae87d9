import { createParser } from 'eventsource-parser';
import { element, setAttributes } from './dom.js';
import { apiBaseOf } from './script-base.js';
import { DEMO_BOOTSTRAP, DEMO_THREAD } from './concierge-demo.js';

// <service-concierge>: the AI concierge widget (spec 4.8). Everything renders inside a shadow root;
// assistant text is only ever set with textContent, never parsed as HTML.

interface Card {
  itemId: string;
  name: string;
  priceCents: number;
  currency: string;
  thumbnailUrl: string | null;
  url: string;
}
interface Detail {
  itemId: string;
  allergens: string[];
  note: string;
}
interface Message {
  role: 'user' | 'assistant';
  text: string;
  cards?: Card[];
  /** Declared allergens of dishes in the answer, with the deferral to staff. */
  details?: Detail[];
  notice?: boolean;
}
interface Bootstrap {
  enabled: boolean;
  displayName?: string;
  welcomeMessage?: string;
  disclosure?: string;
  currency?: string;
  testMode?: boolean;
}

const API_BASE = apiBaseOf(document.currentScript as HTMLScriptElement | null);
const HISTORY_SENT = 10;
/** The longest message the chat route takes, a past one included: a long answer is sent back cut to it. */
const MESSAGE_MAX = 2000;
const STOPPED_TEXT = 'Stopped before the answer was complete. Ask again for the whole answer.';
// The launcher's footprint (offset plus size) is what the menu page keeps free under its last dish
// (services/catalog/src/menu-page/menu-page.theme.ts): change both together.
const STYLE = `
:host { all: initial; font: 14px/1.4 system-ui, sans-serif; color: #1d1d1f; }
.launcher { position: fixed; right: 20px; bottom: 20px; width: 56px; height: 56px; display: grid; place-items: center; padding: 0;
  border-radius: 50%; border: 0; background: #1d1d1f; color: #fff; cursor: pointer; box-shadow: 0 4px 14px rgba(0,0,0,.25);
  z-index: 2147483000; }
.launcher svg { width: 28px; height: 28px; }
.launcher:focus-visible, header button:focus-visible, .card:focus-visible { outline: 3px solid #0a66d8; outline-offset: 2px; }
.panel { position: fixed; right: 20px; bottom: 20px; width: min(380px, calc(100vw - 40px)); height: min(560px, calc(100vh - 40px));
  display: flex; flex-direction: column; background: #fff; border-radius: 12px; box-shadow: 0 8px 30px rgba(0,0,0,.25); overflow: hidden; z-index: 2147483000; }
.panel.inline { position: static; width: 100%; height: 480px; box-shadow: 0 0 0 1px #ddd; }
@media (max-width: 600px) {
  .launcher { right: 16px; bottom: 16px; width: 48px; height: 48px; }
  .launcher svg { width: 24px; height: 24px; }
  .panel:not(.inline) { right: 8px; bottom: 8px; width: calc(100vw - 16px); height: min(600px, calc(100dvh - 16px)); }
}
header { display: flex; align-items: center; gap: 8px; padding: 12px 14px; background: #1d1d1f; color: #fff; font-weight: 600; }
header .title { flex: 1; }
header button { display: grid; place-items: center; width: 32px; height: 32px; margin: -6px -6px -6px 0; padding: 0; background: none;
  border: 0; border-radius: 6px; color: #fff; cursor: pointer; }
header button svg { width: 18px; height: 18px; }
.badge { font-size: 10px; font-weight: 700; letter-spacing: .05em; background: #ffcc00; color: #1d1d1f; padding: 2px 6px; border-radius: 4px; }
.disclosure { padding: 8px 14px; font-size: 12px; background: #f5f5f7; border-bottom: 1px solid #e5e5ea; color: #444; }
.messages { flex: 1; overflow-y: auto; padding: 12px 14px; display: flex; flex-direction: column; gap: 8px; }
.message { padding: 8px 10px; border-radius: 10px; max-width: 85%; white-space: pre-wrap; overflow-wrap: anywhere; }
.user { align-self: flex-end; background: #1d1d1f; color: #fff; }
.assistant { align-self: flex-start; background: #f0f0f3; }
.notice { align-self: center; background: #fff4e5; color: #7a4b00; font-size: 12px; }
.cards { display: flex; flex-direction: column; gap: 6px; margin-top: 8px; white-space: normal; }
.card { display: flex; align-items: center; gap: 10px; padding: 6px 10px 6px 6px; border: 1px solid #ddd; border-radius: 10px;
  background: #fff; color: inherit; text-decoration: none; }
.card:hover { border-color: #1d1d1f; }
.thumb { flex: none; width: 48px; height: 48px; border-radius: 8px; overflow: hidden;
  background: radial-gradient(circle, #e6e1da 0 45%, transparent 47%), #f3f1ee; }
.thumb img { display: block; width: 100%; height: 100%; object-fit: cover; }
.card .name { flex: 1; font-weight: 600; }
.card .price { white-space: nowrap; color: #444; }
.allergens { margin-top: 6px; font-size: 12px; color: #444; } .allergens .note { margin-top: 2px; font-style: italic; }
form { display: flex; gap: 6px; padding: 10px; border-top: 1px solid #e5e5ea; }
input { flex: 1; min-width: 0; padding: 8px 10px; border: 1px solid #8e8e93; border-radius: 8px; font: inherit; }
form button { padding: 8px 12px; border: 0; border-radius: 8px; background: #1d1d1f; color: #fff; font: inherit; cursor: pointer; }
`;

// Icons are drawn, not typed: an emoji or symbol glyph is a missing-glyph box where no font has it.
const CHAT_ICON = [
  'M12 3.5c4.97 0 9 3.36 9 7.5s-4.03 7.5-9 7.5c-1.07 0-2.1-.16-3.05-.45L4 20.5l1.4-4.02C4.2 15.2 3 13.2 3 11c0-4.14 4.03-7.5 9-7.5z',
  'M8 11h.01M12 11h.01M16 11h.01',
];
const CLOSE_ICON = ['M6 6l12 12M18 6L6 18'];

function icon(paths: string[]): SVGSVGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  setAttributes(svg, {
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
  });
  for (const d of paths) {
    const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

function formatPrice(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

/** A fixed-size box with the dish's picture, or a neutral plate when it has none. The name is beside it: no alt. */
function thumbnail(card: Card): HTMLElement {
  const box = element('span', 'thumb');
  if (card.thumbnailUrl) {
    const image = element('img');
    image.src = card.thumbnailUrl;
    image.alt = '';
    image.width = 48;
    image.height = 48;
    box.append(image);
  }
  return box;
}

const ERROR_TEXT: Record<string, string> = {
  concierge_allowance_exhausted: 'The assistant has answered all the questions it can this month. Please ask the staff.',
};

class ServiceConcierge extends HTMLElement {
  private root!: ShadowRoot;
  private restaurantId = '';
  private key = '';
  private demo: string | null = null;
  private bootstrap: Bootstrap = { enabled: false };
  private messages: Message[] = [];
  private disclosure = '';
  private busy = false;
  /** The turn being streamed: closing the panel or leaving the page stops it (and the model with it). */
  private turn: AbortController | null = null;

  connectedCallback(): void {
    if (this.root) return;
    // Attributes are read once, here; unknown ones are ignored.
    this.restaurantId = this.getAttribute('restaurant-id') ?? this.getAttribute('data-restaurant') ?? '';
    this.key = this.getAttribute('publishable-key') ?? this.getAttribute('data-key') ?? this.getAttribute('key') ?? '';
    this.demo = this.hasAttribute('demo') ? this.getAttribute('demo') || 'thread' : null;
    this.root = this.attachShadow({ mode: 'open' });
    if (this.demo) return this.startDemo();
    // Without both attributes there is nothing to talk to: render nothing at all.
    if (!this.restaurantId || !this.key) return;
    void this.load();
  }

  disconnectedCallback(): void {
    this.turn?.abort();
  }

  private get storageKey(): string {
    return `service-concierge:${this.restaurantId}`;
  }

  private startDemo(): void {
    this.bootstrap = DEMO_BOOTSTRAP;
    this.disclosure = DEMO_BOOTSTRAP.disclosure!;
    this.messages = DEMO_THREAD;
    if (this.demo === 'launcher') this.renderLauncher();
    else this.renderPanel();
  }

  private async load(): Promise<void> {
    try {
      const res = await fetch(`${API_BASE}/v1/partner/embed/restaurants/${encodeURIComponent(this.restaurantId)}/concierge`, {
        headers: { authorization: `Bearer ${this.key}` },
      });
      if (!res.ok) return;
      this.bootstrap = ((await res.json()) as { data: Bootstrap }).data;
    } catch {
      return;
    }
    // Every state that cannot be served answers enabled: false; then no button at all.
    if (!this.bootstrap.enabled) return;
    this.disclosure = this.bootstrap.disclosure ?? '';
    try {
      this.messages = JSON.parse(sessionStorage.getItem(this.storageKey) ?? '[]') as Message[];
    } catch {
      this.messages = [];
    }
    this.renderLauncher();
  }

  private renderLauncher(): HTMLButtonElement {
    this.root.replaceChildren(element('style', undefined, STYLE));
    const launcher = element('button', 'launcher');
    launcher.type = 'button';
    launcher.append(icon(CHAT_ICON));
    launcher.setAttribute('aria-label', `Chat with ${this.bootstrap.displayName ?? 'the restaurant'}`);
    launcher.title = launcher.getAttribute('aria-label')!;
    launcher.addEventListener('click', () => {
      if (this.demo === 'launcher') return;
      // Focus follows into the panel, on its close button: on the input, a phone's keyboard would
      // rise over the thread before the guest has read it.
      this.renderPanel();
      this.root.querySelector<HTMLButtonElement>('header button')?.focus();
    });
    this.root.append(launcher);
    return launcher;
  }

  private renderPanel(): void {
    this.root.replaceChildren(element('style', undefined, STYLE));
    const panel = element('section', this.demo ? 'panel inline' : 'panel');
    const header = element('header');
    header.append(element('span', 'title', this.bootstrap.displayName ?? 'Assistant'));
    if (this.bootstrap.testMode) header.append(element('span', 'badge', 'TEST MODE'));
    if (!this.demo) {
      const close = element('button');
      close.type = 'button';
      close.append(icon(CLOSE_ICON));
      close.setAttribute('aria-label', 'Close');
      close.addEventListener('click', () => {
        this.turn?.abort();
        this.renderLauncher().focus();
      });
      header.append(close);
    }
    // The disclosure is pinned under the header on every panel, and cannot be closed (spec 4.8).
    const disclosure = element('div', 'disclosure', this.disclosure);
    disclosure.setAttribute('role', 'note');
    const list = element('div', 'messages');
    list.setAttribute('aria-live', 'polite');
    if (this.bootstrap.welcomeMessage) list.append(element('div', 'message assistant', this.bootstrap.welcomeMessage));
    for (const message of this.messages) list.append(this.renderMessage(message));
    const form = element('form');
    const input = element('input');
    input.placeholder = 'Ask about the menu…';
    input.setAttribute('aria-label', 'Your question');
    input.maxLength = MESSAGE_MAX;
    form.append(input, element('button', undefined, 'Send'));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text || this.busy || this.demo) return;
      input.value = '';
      void this.send(text, list);
    });
    panel.append(header, disclosure, list, form);
    this.root.append(panel);
    list.scrollTop = list.scrollHeight;
  }

  private renderMessage(message: Message): HTMLElement {
    const bubble = element('div', `message ${message.notice ? 'notice' : message.role}`, message.text);
    if (message.cards?.length) {
      const cards = element('div', 'cards');
      for (const card of message.cards) {
        const link = element('a', 'card');
        link.href = card.url;
        link.target = '_blank';
        link.rel = 'noopener';
        link.append(
          thumbnail(card),
          element('span', 'name', card.name),
          element('span', 'price', formatPrice(card.priceCents, card.currency)),
        );
        cards.append(link);
      }
      bubble.append(cards);
    }
    if (message.details?.length) {
      const names = new Map((message.cards ?? []).map((card) => [card.itemId, card.name]));
      const allergens = element('div', 'allergens');
      for (const detail of message.details) {
        const declared = detail.allergens.length ? detail.allergens.join(', ') : 'none declared';
        allergens.append(element('div', undefined, `${names.get(detail.itemId) ?? 'This dish'}: ${declared}`));
      }
      allergens.append(element('div', 'note', message.details[0]!.note));
      bubble.append(allergens);
    }
    return bubble;
  }

  private async send(text: string, list: HTMLElement): Promise<void> {
    this.busy = true;
    const turn = (this.turn = new AbortController());
    // Screen readers announce the answer once it is whole, not every word as it streams.
    list.setAttribute('aria-busy', 'true');
    const history = this.messages
      .filter((m) => !m.notice)
      .slice(-HISTORY_SENT)
      .map((m) => ({ role: m.role, content: m.text.slice(0, MESSAGE_MAX) }))
      .filter((m) => m.content);
    const asked: Message = { role: 'user', text };
    const reply: Message = { role: 'assistant', text: '' };
    this.messages.push(asked, reply);
    list.append(this.renderMessage(asked));
    let bubble = this.renderMessage(reply);
    list.append(bubble);
    const update = () => {
      const next = this.renderMessage(reply);
      bubble.replaceWith(next);
      bubble = next;
      list.scrollTop = list.scrollHeight;
    };
    try {
      const res = await fetch(`${API_BASE}/v1/partner/embed/restaurants/${encodeURIComponent(this.restaurantId)}/concierge/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(history.length ? { message: text, history } : { message: text }),
        signal: turn.signal,
      });
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      const parser = createParser({
        onEvent: (event) => {
          const data = JSON.parse(event.data) as Record<string, unknown>;
          if (event.event === 'meta' && typeof data.disclosure === 'string' && data.disclosure !== this.disclosure) {
            this.disclosure = data.disclosure;
            const pinned = this.root.querySelector('.disclosure');
            if (pinned) pinned.textContent = this.disclosure;
          } else if (event.event === 'delta') {
            reply.text += typeof data.text === 'string' ? data.text : '';
            update();
          } else if (event.event === 'detail') {
            reply.details = [...(reply.details ?? []), data as unknown as Detail];
            update();
          } else if (event.event === 'cards') {
            reply.cards = data.cards as Card[];
            update();
          } else if (event.event === 'error') {
            reply.notice = true;
            reply.text = ERROR_TEXT[String(data.code)] ?? 'The assistant could not answer just now. Please try again.';
            update();
          }
        },
      });
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Half an answer is not kept: it could be missing what matters (an allergen, a caveat).
      Object.assign(reply, { notice: true, cards: undefined, details: undefined });
      reply.text = turn.signal.aborted ? STOPPED_TEXT : 'The assistant could not answer just now. Please try again.';
      update();
    } finally {
      this.busy = false;
      this.turn = null;
      list.setAttribute('aria-busy', 'false');
      try {
        sessionStorage.setItem(this.storageKey, JSON.stringify(this.messages.slice(-50)));
      } catch {
        // storage full or disabled: the conversation still works for this page
      }
    }
  }
}

if (!customElements.get('service-concierge')) customElements.define('service-concierge', ServiceConcierge);
