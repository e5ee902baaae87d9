import type { TWebhookEndpoint } from '@partner/contracts';
import type { TConsoleRestaurant, TUsage } from '@partner/contracts/console';
import { get } from '../api';
import { useLoad } from '../hooks';
import { ownerPath } from '../types';
import { Badge, ErrorNote, formatDate, Loading, Meter, PageTitle, Section } from '../ui';
import type { TabProps } from '../types';

interface Attention {
  text: string;
  href: string;
}

/** Plan and add-ons, usage against the month's limits, and whatever needs the owner's attention. */
export function OverviewTab({ owner }: TabProps) {
  const base = ownerPath(owner);
  const loaded = useLoad(async () => {
    const [restaurant, usage, endpoints] = await Promise.all([
      get<TConsoleRestaurant>(base),
      get<TUsage>(`${base}/usage`),
      // Null when they could not be read: never taken for "no endpoint needs attention".
      get<TWebhookEndpoint[]>(`${base}/webhook-endpoints?limit=100`).catch(() => null),
    ]);
    return { restaurant, usage, endpoints };
  }, [owner.id]);
  if (!loaded.data) return loaded.error ? <ErrorNote error={loaded.error} /> : <Loading />;
  const { restaurant, usage, endpoints } = loaded.data;
  const attention: Attention[] = [
    ...(restaurant.subscriptionStatus === 'lapsed'
      ? [{ text: 'Your subscription has lapsed: the API and the concierge answer 403 until it is renewed.', href: base }]
      : []),
    ...(restaurant.suspended ? [{ text: 'This restaurant is suspended: every key is refused. Contact the platform.', href: base }] : []),
    ...(endpoints === null
      ? [{ text: 'The state of your webhook endpoints could not be checked just now.', href: `${base}/webhooks` }]
      : []),
    ...(endpoints ?? [])
      .filter((endpoint) => endpoint.status === 'disabled')
      .map((endpoint) => ({
        text: `The webhook endpoint ${endpoint.url} was disabled: ${endpoint.disabledReason ?? 'deliveries kept failing'}.`,
        href: `${base}/webhooks`,
      })),
    ...(usage.apiRequests.included > 0 && usage.apiRequests.used >= usage.apiRequests.included * 0.8
      ? [{ text: 'API requests are past 80 % of the monthly quota.', href: `${base}/keys` }]
      : []),
    ...(restaurant.conciergeAddon &&
    usage.conciergeMessages.allowance > 0 &&
    usage.conciergeMessages.used >= usage.conciergeMessages.allowance * 0.8
      ? [{ text: 'Concierge messages are past 80 % of the monthly allowance.', href: `${base}/concierge` }]
      : []),
  ];
  return (
    <>
      <PageTitle>{restaurant.name}</PageTitle>
      <Section title="Needs your attention">
        {attention.length === 0 ? (
          <p class="muted">Nothing: all is well.</p>
        ) : (
          <ul class="attention">
            {attention.map((item) => (
              <li key={item.text}>
                <a href={item.href}>{item.text}</a>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Plan">
        <dl class="facts">
          <dt>Subscription</dt>
          <dd>
            <Badge tone={restaurant.subscriptionStatus === 'active' ? 'good' : 'bad'}>{restaurant.subscriptionStatus}</Badge>
          </dd>
          <dt>Partner API add-on</dt>
          <dd>{restaurant.partnerApiAddon ? <Badge tone="good">on</Badge> : <Badge tone="neutral">off</Badge>}</dd>
          <dt>Concierge add-on</dt>
          <dd>{restaurant.conciergeAddon ? <Badge tone="good">on</Badge> : <Badge tone="neutral">off</Badge>}</dd>
          <dt>Concierge</dt>
          <dd>{restaurant.conciergeEnabled ? <Badge tone="good">switched on</Badge> : <Badge tone="neutral">switched off</Badge>}</dd>
        </dl>
      </Section>
      <Section title="This month">
        <p class="muted small">
          {formatDate(usage.periodStart)} to {formatDate(usage.periodEnd)}
        </p>
        <Meter label="API requests" used={usage.apiRequests.used} limit={usage.apiRequests.included} unit="requests" />
        {usage.apiRequests.overageBudget > 0 && (
          <p class="muted small">Up to {usage.apiRequests.overageBudget.toLocaleString('en')} more requests are allowed as overage.</p>
        )}
        <Meter label="Concierge messages" used={usage.conciergeMessages.used} limit={usage.conciergeMessages.allowance} unit="messages" />
        <p>
          <strong data-testid="embed-views">{usage.embedViews.used.toLocaleString('en')}</strong> views of your dishes in 3D through the
          viewer embed (each counted among the API requests).
        </p>
      </Section>
    </>
  );
}
