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
  \`X-RateLimit-Reset\`.`;

/** The integrator guides, as they sit in the repository. */
export const GUIDES = `## Guides

In the repository, under \`docs/\`: start with \`docs/guides/README.md\` (getting started, authentication
and keys, errors, pagination and sync, the menu and its ETag, assets and AR, concierge streaming, embeds,
rate limits and quotas) and \`docs/webhooks.md\`. The typed client is \`@partner/sdk\`.`;
