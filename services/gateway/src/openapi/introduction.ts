// The reference's opening text (Markdown, rendered at /docs).

export const INTRODUCTION = `For the point-of-sale systems, ordering apps and agencies that work for restaurants.

- **Authentication**: \`Authorization: Bearer <key>\`. Secret keys (\`svc_sk_…\`) stay on your server;
  publishable keys (\`svc_pk_…\`) are for web pages and reach only the embed routes, from the origins
  they allow. Keys are \`live\` or \`test\`; every answer says which in \`X-Service-Environment\`.
- **Answers**: one resource is \`{ "data": … }\`; a list is \`{ "data": [ … ], "meta": { "nextCursor": … } }\`.
  Answers may gain fields at any time: ignore the ones you do not know.
- **Errors**: \`{ "error": { "code", "message", "requestId", "param"? } }\` with the status of the code.
  Branch on \`code\`; a \`429\` or \`503\` carries \`Retry-After\`.
- **Retries**: send an \`Idempotency-Key\` with every \`POST\`, \`PATCH\` and \`DELETE\` and a retry is never
  done twice.
- **Limits**: every keyed answer carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and
  \`X-RateLimit-Reset\` (on a route without a key, and on a refusal before the key is known, those of
  the client address).`;

/** The integrator guides, served by the gateway beside this reference (and under docs/guides/ in the repository). */
export const GUIDES = `## Guides

[All guides](/docs/guides/): [getting started](/docs/guides/getting-started.md),
[authentication, keys and test mode](/docs/guides/authentication.md), [errors](/docs/guides/errors.md),
[pagination and incremental sync](/docs/guides/pagination-and-sync.md), [the menu and its ETag](/docs/guides/menu.md),
[3D assets and AR](/docs/guides/assets-and-ar.md), [webhooks](/docs/guides/webhooks.md),
[concierge streaming](/docs/guides/concierge.md), [embeds](/docs/guides/embeds.md),
[rate limits and quotas](/docs/guides/rate-limits.md). The typed client: [\`@partner/sdk\`](/docs/guides/sdk.md).`;
