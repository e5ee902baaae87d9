import type { z } from 'zod';
import type { ZItem, ZSection } from '@partner/contracts';
import type {
  ZConnectLink,
  ZConsoleRestaurant,
  ZCreatedKey,
  ZConsoleKey,
  ZGrant,
  ZIntegratorOrg,
  ZMember,
  ZUsage,
} from '@partner/contracts/console';

export class ConsoleApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A typed client of the console API, used by the operators' CLI and the local start command. */
export class ConsoleClient {
  constructor(private readonly options: { baseUrl: string; adminToken: string }) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const form = body instanceof FormData;
    const res = await fetch(new URL(path, this.options.baseUrl), {
      method,
      headers: {
        authorization: `Bearer ${this.options.adminToken}`,
        ...(body === undefined || form ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    const payload = (await res.json()) as { data?: T; error?: { code: string; message: string } };
    if (!res.ok || payload.error) {
      throw new ConsoleApiError(res.status, payload.error?.code ?? 'unknown', payload.error?.message ?? res.statusText);
    }
    return payload.data as T;
  }

  createRestaurant = (body: Record<string, unknown>) => this.call<z.infer<typeof ZConsoleRestaurant>>('POST', '/console/restaurants', body);
  getRestaurant = (id: string) => this.call<z.infer<typeof ZConsoleRestaurant>>('GET', `/console/restaurants/${id}`);
  updateRestaurant = (id: string, body: Record<string, unknown>) =>
    this.call<z.infer<typeof ZConsoleRestaurant>>('PATCH', `/console/restaurants/${id}`, body);
  createSection = (restaurantId: string, body: Record<string, unknown>) =>
    this.call<z.infer<typeof ZSection>>('POST', `/console/restaurants/${restaurantId}/sections`, body);
  createItem = (restaurantId: string, body: Record<string, unknown>) =>
    this.call<z.infer<typeof ZItem>>('POST', `/console/restaurants/${restaurantId}/items`, body);
  updateItem = (id: string, body: Record<string, unknown>) => this.call<z.infer<typeof ZItem>>('PATCH', `/console/items/${id}`, body);
  deleteItem = (id: string) => this.call<{ id: string; deleted: true }>('DELETE', `/console/items/${id}`);
  createIntegrator = (body: Record<string, unknown>) => this.call<z.infer<typeof ZIntegratorOrg>>('POST', '/console/integrators', body);
  updateIntegrator = (id: string, body: Record<string, unknown>) =>
    this.call<z.infer<typeof ZIntegratorOrg>>('PATCH', `/console/integrators/${id}`, body);
  createKey = (body: Record<string, unknown>) => this.call<z.infer<typeof ZCreatedKey>>('POST', '/console/keys', body);
  /** An option left out is not sent (`URLSearchParams` would send the text "undefined"). */
  listKeys = (owner: { restaurantId?: string; integratorOrgId?: string }) => {
    const given = Object.entries(owner).filter((entry): entry is [string, string] => entry[1] !== undefined);
    return this.call<z.infer<typeof ZConsoleKey>[]>('GET', `/console/keys?${new URLSearchParams(given).toString()}`);
  };
  revokeKey = (id: string) => this.call<z.infer<typeof ZConsoleKey>>('POST', `/console/keys/${id}/revoke`);
  createConnectLink = (integratorOrgId: string, body: Record<string, unknown> = {}) =>
    this.call<z.infer<typeof ZConnectLink>>('POST', `/console/integrators/${integratorOrgId}/connect-links`, body);
  approveConnectLink = (token: string, restaurantId: string) =>
    this.call<z.infer<typeof ZGrant>>('POST', `/console/connect-links/${token}/approve`, { restaurantId });
  /** Adds a person to a restaurant's or integrator's team (their account made if new) and e-mails them a sign-in link. */
  inviteMember = (
    owner: { kind: 'restaurant' | 'integrator'; id: string },
    body: { email: string; name?: string; role?: 'owner' | 'member' },
  ) =>
    this.call<z.infer<typeof ZMember>>(
      'POST',
      `/console/${owner.kind === 'restaurant' ? 'restaurants' : 'integrators'}/${owner.id}/members`,
      body,
    );
  revokeGrant = (id: string) => this.call<z.infer<typeof ZGrant>>('POST', `/console/grants/${id}/revoke`);
  /** Uploads a model's files (multipart): the item's model ends ready, or the call fails with model_invalid. */
  uploadModel = (itemId: string, files: { glb: Uint8Array; usdz: Uint8Array; thumbnail: Uint8Array }) => {
    const form = new FormData();
    form.append('glb', new Blob([files.glb], { type: 'model/gltf-binary' }), 'dish.glb');
    form.append('usdz', new Blob([files.usdz], { type: 'model/vnd.usdz+zip' }), 'dish.usdz');
    form.append('thumbnail', new Blob([files.thumbnail]), 'thumbnail');
    return this.call<z.infer<typeof ZItem>>('PUT', `/console/items/${itemId}/model`, form);
  };
  usage = (restaurantId: string) => this.call<z.infer<typeof ZUsage>>('GET', `/console/restaurants/${restaurantId}/usage`);
  setKillSwitch = (concierge: boolean) => this.call<{ concierge: boolean }>('PUT', '/console/platform/kill-switch', { concierge });
  /** The newest changes made through console, newest first (docs/console-api.md, "Audit trail"). */
  auditEvents = (limit = 50) =>
    this.call<
      { id: string; occurredAt: string; actor: string; action: string; targetId: string | null; requestId: string; status: number }[]
    >('GET', `/console/audit-events?limit=${limit}`);
}
