import type { ComponentChildren } from 'preact';
import type { TItem } from '@partner/contracts';
import { get } from '../api';
import { Embed, gatewayOrigin } from '../embeds';
import { useLoad } from '../hooks';
import type { TabProps } from '../types';
import { CopyButton, ErrorNote, Loading, PageTitle, Section } from '../ui';

/** Copy-paste snippets for the 3D viewer and the concierge widget, the viewer live beside its snippet. */
export function EmbedsTab({ owner }: TabProps) {
  const loaded = useLoad(async () => {
    const [origin, items] = await Promise.all([gatewayOrigin(), get<TItem[]>(`/restaurants/${owner.id}/items?limit=500`)]);
    return { origin, shown: items.find((item) => item.status === 'published' && item.model.status === 'ready') };
  }, [owner.id]);
  if (!loaded.data) {
    if (!loaded.error) return <Loading />;
    return (
      <>
        <PageTitle>Embeds</PageTitle>
        <ErrorNote error={loaded.error} />
      </>
    );
  }
  const { origin, shown } = loaded.data;
  const viewer = `<script src="${origin}/embed/v1.js" async></script>\n<service-viewer item-id="${shown?.id ?? 'itm_…'}" publishable-key="pk_…"></service-viewer>`;
  const widget = `<script src="${origin}/embed/concierge.v1.js" async></script>\n<service-concierge restaurant-id="${owner.id}" publishable-key="pk_…"></service-concierge>`;
  return (
    <>
      <PageTitle>Embeds</PageTitle>
      <p>
        Paste these into your site, with a <a href={`/restaurants/${owner.id}/keys`}>publishable key</a> that allows your site’s origin in
        place of <code>pk_…</code>.
      </p>
      <Snippet title="3D dish viewer" code={viewer}>
        {shown ? <LiveViewer restaurantId={owner.id} item={shown} /> : <p class="muted">Publish a dish with a 3D model to see it here.</p>}
      </Snippet>
      <Snippet title="Concierge widget" code={widget}>
        <p class="muted">
          The widget is a chat button at the bottom right of the page: try it from{' '}
          <a href={`/restaurants/${owner.id}/concierge`}>Concierge</a>.
        </p>
      </Snippet>
    </>
  );
}

function LiveViewer(props: { restaurantId: string; item: TItem }) {
  return (
    <Embed restaurantId={props.restaurantId} file="v1.js" what="viewer">
      {(key) => (
        <figure class="live">
          <service-viewer class="preview" item-id={props.item.id} publishable-key={key} />
          <figcaption class="muted small">{props.item.name}, live, as your guests will see it.</figcaption>
        </figure>
      )}
    </Embed>
  );
}

function Snippet(props: { title: string; code: string; children: ComponentChildren }) {
  return (
    <Section title={props.title} action={<CopyButton value={props.code} label="Copy snippet" />}>
      <pre class="snippet" tabIndex={0} aria-label={`${props.title} snippet`}>
        <code>{props.code}</code>
      </pre>
      {props.children}
    </Section>
  );
}
