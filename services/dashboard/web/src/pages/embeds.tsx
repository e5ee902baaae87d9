import { useLoad } from '../hooks';
import { CopyButton, Loading, PageTitle, Section } from '../ui';
import type { TabProps } from '../types';

/** Where the embed scripts come from: the gateway's public origin, as the dashboard's server knows it. */
const appConfig = () => fetch('/app-config.json').then((res) => res.json() as Promise<{ publicBaseUrl: string }>);

/** Copy-paste snippets for the 3D viewer and the concierge widget. */
export function EmbedsTab({ owner }: TabProps) {
  const config = useLoad(appConfig, []);
  if (!config.data) return <Loading />;
  const origin = config.data.publicBaseUrl.replace(/\/$/, '');
  const viewer = `<script src="${origin}/embed/v1.js" async></script>\n<service-viewer item-id="itm_…" publishable-key="pk_…"></service-viewer>`;
  const widget = `<script src="${origin}/embed/concierge.v1.js" async></script>\n<service-concierge restaurant-id="${owner.id}" publishable-key="pk_…"></service-concierge>`;
  return (
    <>
      <PageTitle>Embeds</PageTitle>
      <p>
        Paste these into your site. Use a <a href={`/restaurants/${owner.id}/keys`}>publishable key</a> that allows your site’s origin, and
        an item id from the menu.
      </p>
      <Snippet title="3D dish viewer" code={viewer} />
      <Snippet title="Concierge widget" code={widget} />
    </>
  );
}

function Snippet(props: { title: string; code: string }) {
  return (
    <Section title={props.title} action={<CopyButton value={props.code} label="Copy snippet" />}>
      <pre class="snippet" tabIndex={0} aria-label={`${props.title} snippet`}>
        <code>{props.code}</code>
      </pre>
    </Section>
  );
}
