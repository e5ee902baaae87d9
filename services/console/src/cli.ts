import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConsoleApiError, ConsoleClient } from './client.js';

// `pnpm console <resource> <action> [args]`: the console API from a terminal, for operators.
const USAGE = `Usage: pnpm console <command>

  restaurant create --name N --slug S [--currency USD]
  restaurant get <rst_id>
  restaurant update <rst_id> --json '{"suspended":true,"subscriptionStatus":"lapsed"}'
  section create <rst_id> --name N [--position 1]
  item create <rst_id> --name N --price-cents 1200 [--status published] [--section sec_id]
  item update <itm_id> --json '{"priceCents":1300}'
  item delete <itm_id>
  integrator create --name N --slug S
  integrator update <org_id> --json '{"suspended":true}'
  key create (--restaurant rst_id | --integrator org_id) --type secret|publishable --env live|test --name N
             [--scopes menu:read,assets:read] [--origins https://a.example,https://*.b.example] [--rate 600] [--expires ISO]
  key list (--restaurant rst_id | --integrator org_id)
  key revoke <key_id>
  connect-link create <org_id> [--scopes menu:read]
  connect-link approve <token> --restaurant rst_id
  grant revoke <grt_id>
  kill-switch on|off
  audit list [--limit 50]

Environment: CONSOLE_URL (default http://127.0.0.1:8084), CONSOLE_ADMIN_TOKEN (default: the local stack's).`;

function adminToken(): string {
  if (process.env.CONSOLE_ADMIN_TOKEN) return process.env.CONSOLE_ADMIN_TOKEN;
  const stateFile = join(import.meta.dirname, '..', '..', '..', '.data', 'local-state.json');
  if (existsSync(stateFile)) return (JSON.parse(readFileSync(stateFile, 'utf8')) as { adminToken: string }).adminToken;
  throw new Error('Set CONSOLE_ADMIN_TOKEN (or start the local stack with pnpm start first).');
}

const list = (value: string | undefined) =>
  value
    ? value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
    : undefined;
const json = (value: string | undefined): Record<string, unknown> => (value ? (JSON.parse(value) as Record<string, unknown>) : {});

async function run(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      slug: { type: 'string' },
      currency: { type: 'string' },
      position: { type: 'string' },
      'price-cents': { type: 'string' },
      status: { type: 'string' },
      section: { type: 'string' },
      json: { type: 'string' },
      restaurant: { type: 'string' },
      integrator: { type: 'string' },
      type: { type: 'string' },
      env: { type: 'string' },
      scopes: { type: 'string' },
      origins: { type: 'string' },
      rate: { type: 'string' },
      limit: { type: 'string' },
      expires: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [resource, action, id] = positionals;
  if (values.help || !resource) return USAGE;
  const client = new ConsoleClient({ baseUrl: process.env.CONSOLE_URL ?? 'http://127.0.0.1:8084', adminToken: adminToken() });
  const need = (value: string | undefined, what: string) => {
    if (!value) throw new Error(`Missing ${what}.\n\n${USAGE}`);
    return value;
  };
  const owner = { restaurantId: values.restaurant, integratorOrgId: values.integrator };

  switch (`${resource} ${action ?? ''}`.trim()) {
    case 'restaurant create':
      return client.createRestaurant({ name: values.name, slug: values.slug, currency: values.currency });
    case 'restaurant get':
      return client.getRestaurant(need(id, 'restaurant id'));
    case 'restaurant update':
      return client.updateRestaurant(need(id, 'restaurant id'), json(values.json));
    case 'section create':
      return client.createSection(need(id, 'restaurant id'), {
        name: values.name,
        position: values.position === undefined ? undefined : Number(values.position),
      });
    case 'item create':
      return client.createItem(need(id, 'restaurant id'), {
        name: values.name,
        priceCents: Number(values['price-cents']),
        status: values.status,
        sectionId: values.section,
      });
    case 'item update':
      return client.updateItem(need(id, 'item id'), json(values.json));
    case 'item delete':
      return client.deleteItem(need(id, 'item id'));
    case 'integrator create':
      return client.createIntegrator({ name: values.name, slug: values.slug });
    case 'integrator update':
      return client.updateIntegrator(need(id, 'integrator id'), json(values.json));
    case 'key create':
      return client.createKey({
        ...owner,
        type: values.type,
        environment: values.env,
        name: values.name,
        scopes: list(values.scopes),
        allowedOrigins: list(values.origins),
        rateLimitPerMin: values.rate === undefined ? undefined : Number(values.rate),
        expiresAt: values.expires,
      });
    case 'key list':
      return client.listKeys(owner);
    case 'key revoke':
      return client.revokeKey(need(id, 'key id'));
    case 'connect-link create':
      return client.createConnectLink(need(id, 'integrator id'), { scopes: list(values.scopes) });
    case 'connect-link approve':
      return client.approveConnectLink(need(id, 'connect link token'), need(values.restaurant, '--restaurant'));
    case 'grant revoke':
      return client.revokeGrant(need(id, 'grant id'));
    case 'kill-switch on':
    case 'kill-switch off':
      return client.setKillSwitch(action === 'on');
    case 'audit list':
      return client.auditEvents(values.limit ? Number(values.limit) : undefined);
    default:
      throw new Error(`Unknown command: ${positionals.join(' ')}\n\n${USAGE}`);
  }
}

try {
  const result = await run(process.argv.slice(2));
  console.log(typeof result === 'string' ? result : JSON.stringify(result, null, 2));
} catch (err) {
  if (err instanceof ConsoleApiError) console.error(`error ${err.status} ${err.code}: ${err.message}`);
  else console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
}
