import { useLocation } from 'preact-iso';
import type { ComponentType } from 'preact';
import { ownerPath, type TabProps } from '../types';
import { useSession } from '../session';
import { Note } from '../ui';
import { ConciergeTab } from './concierge';
import { EmbedsTab } from './embeds';
import { GrantsTab } from './grants';
import { IntegratorOverviewTab, ConnectLinksTab } from './integrator';
import { KeysTab } from './keys';
import { MenuTab } from './menu';
import { OverviewTab } from './overview';
import { TeamTab } from './team';
import { WebhooksTab } from './webhooks';

const RESTAURANT_TABS: Array<[slug: string, label: string, ComponentType<TabProps>]> = [
  ['', 'Overview', OverviewTab],
  ['menu', 'Menu', MenuTab],
  ['keys', 'API keys', KeysTab],
  ['webhooks', 'Webhooks', WebhooksTab],
  ['integrations', 'Integrations', GrantsTab],
  ['concierge', 'Concierge', ConciergeTab],
  ['embeds', 'Embeds', EmbedsTab],
  ['team', 'Team', TeamTab],
];
const INTEGRATOR_TABS: Array<[slug: string, label: string, ComponentType<TabProps>]> = [
  ['', 'Restaurants', IntegratorOverviewTab],
  ['connect-links', 'Connect links', ConnectLinksTab],
  ['keys', 'API keys', KeysTab],
  ['webhooks', 'Webhooks', WebhooksTab],
  ['team', 'Team', TeamTab],
];

/** A restaurant's or an integrator org's pages, one tab at a time, for a member of it. */
export function OwnerPage(props: { kind: 'restaurant' | 'integrator'; params?: { id: string; tab?: string } }) {
  const { session } = useSession();
  const location = useLocation();
  const id = props.params?.id ?? '';
  const tab = props.params?.tab ?? '';
  const owner = session?.memberships.find((m) => m.kind === props.kind && m.id === id);
  const base = ownerPath({ kind: props.kind, id });
  if (!owner) {
    return (
      <div class="page">
        <Note tone="warning">There is nothing here for you. It may not exist, or you are not a member of it.</Note>
      </div>
    );
  }
  const tabs = props.kind === 'restaurant' ? RESTAURANT_TABS : INTEGRATOR_TABS;
  const current = tabs.find(([slug]) => slug === tab) ?? tabs[0]!;
  const Tab = current[2];
  const others = session!.memberships.filter((m) => m.id !== id);
  return (
    <div class="owner">
      <div class="owner-head">
        <p class="owner-name">
          <span class="muted">{props.kind === 'restaurant' ? 'Restaurant' : 'Integrator'}</span>
          <strong>{owner.name}</strong>
        </p>
        {others.length > 0 && (
          <label class="switcher">
            <span class="visually-hidden">Switch to</span>
            <select
              onChange={(event) => {
                const next = others.find((m) => m.id === event.currentTarget.value);
                if (next) location.route(ownerPath(next));
              }}
            >
              <option value="">Switch to…</option>
              {others.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <nav class="tabs" aria-label={`${owner.name} sections`}>
        {tabs.map(([slug, label]) => (
          <a key={slug} href={slug ? `${base}/${slug}` : base} aria-current={slug === current[0] ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      <div class="page" key={`${id}/${current[0]}`}>
        <Tab owner={owner} />
      </div>
    </div>
  );
}
