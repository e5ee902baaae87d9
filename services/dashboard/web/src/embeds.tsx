import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { get } from './api';
import { Loading, Note } from './ui';

// The project's own embeds, live in the dashboard: the gateway's scripts, run with the restaurant's
// dashboard preview key (a publishable test key that only the dashboard's origin may use).

declare module 'preact' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'service-viewer': { 'item-id': string; 'publishable-key': string; class?: string };
      'service-concierge': { 'restaurant-id': string; 'publishable-key': string; class?: string };
    }
  }
}

let gateway: Promise<string> | undefined;
/**
 * Where the embed scripts are served: the gateway's public origin, as the dashboard's server knows it.
 * Asked once per page; a failure is not kept, so the next page asks again.
 */
export const gatewayOrigin = () =>
  (gateway ??= fetch('/app-config.json')
    .then((res) => {
      if (!res.ok) throw new Error(`The dashboard's configuration could not be read (${res.status}). Reload to try again.`);
      return res.json() as Promise<{ publicBaseUrl: string }>;
    })
    .then((config) => config.publicBaseUrl.replace(/\/$/, ''))
    .catch((err: unknown) => {
      gateway = undefined;
      throw err;
    }));

const scripts = new Map<string, Promise<void>>();
function loadScript(src: string): Promise<void> {
  let loading = scripts.get(src);
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        // Not kept: the next preview loads it afresh.
        scripts.delete(src);
        script.remove();
        reject(new Error(`${src} did not load`));
      };
      document.head.append(script);
    });
    scripts.set(src, loading);
  }
  return loading;
}

/** The embed script loaded and the restaurant's preview key, or why not. */
function useEmbed(restaurantId: string, file: 'v1.js' | 'concierge.v1.js') {
  const [state, setState] = useState<{ key?: string; error?: string }>({});
  useEffect(() => {
    let current = true;
    Promise.all([
      get<{ key: string }>(`/restaurants/${restaurantId}/preview-key`),
      gatewayOrigin().then((origin) => loadScript(`${origin}/embed/${file}`)),
    ]).then(
      ([preview]) => current && setState({ key: preview.key }),
      (err: Error) => current && setState({ error: err.message }),
    );
    return () => {
      current = false;
    };
  }, [restaurantId, file]);
  return state;
}

/**
 * An embed (`what` names it to the owner) with the restaurant's preview key, once its script has loaded:
 * a loading state meanwhile, and a warning if it cannot load.
 */
export function Embed(props: {
  restaurantId: string;
  file: 'v1.js' | 'concierge.v1.js';
  what: string;
  children: (key: string) => ComponentChildren;
}) {
  const embed = useEmbed(props.restaurantId, props.file);
  if (embed.error)
    return (
      <Note tone="warning">
        The {props.what} could not load: {embed.error}
      </Note>
    );
  if (!embed.key) return <Loading />;
  return <>{props.children(embed.key)}</>;
}
