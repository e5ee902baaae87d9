import type { KeyPrincipal } from '@partner/auth';
import { type ConciergeContext, findConciergeContext, menuEtagOf, type RestaurantRow } from '@partner/db';
import { AppError } from '@partner/contracts';
import { newId } from '@partner/http';
import { billingPeriod, requireActiveSubscription } from '@partner/entitlements';
import type { TChatRequest, TConciergeBootstrap } from '@partner/contracts';
import type { TurnOutcome } from '../concierge-metrics.js';
import type { ConciergeDeps } from '../deps.js';
import { ALLERGEN_QUESTION_WORDS } from '../grounding/allergen-vocabulary.js';
import { containsAnyAllergen } from '../grounding/dish-analysis.js';
import type { MenuEntry, MenuIndex } from '../grounding/menu-index.js';
import { buildSystemPrompt } from '../grounding/prompt.js';
import { tokenize } from '../grounding/terms.js';
import { ReplyGuard } from './reply-guard.js';
import { pricesIn } from './sentence-rules.js';
import type { SseStream } from './sse.js';

const ALLERGEN_NOTE = 'Declared by the restaurant. Allergen information can change: please confirm with the staff before ordering.';

/** Said when the model wrote nothing that keeps to the menu. */
const NOTHING_TO_SAY = "Sorry, I can only help with the dishes on this restaurant's menu. What would you like to know about them?";

export const disclosureFor = (restaurantName: string) =>
  `You are chatting with an AI assistant. Its answers come from ${restaurantName}'s menu and may be incomplete or wrong; check allergens with the staff.`;

/**
 * Whether a dish contains one of these allergens, each dish analysed once: the guard asks again for
 * every sentence (and every piece of a long one) that cites it.
 */
function avoidedOncePerDish(allergens: readonly string[]): (dish: MenuEntry) => boolean {
  const contains = new Map<string, boolean>();
  return (dish) => {
    if (!contains.has(dish.id)) contains.set(dish.id, containsAnyAllergen(dish, allergens));
    return contains.get(dish.id)!;
  };
}

const servable = ({ restaurant, killSwitch }: ConciergeContext): boolean =>
  restaurant.subscription_status === 'active' &&
  restaurant.partner_api_addon &&
  restaurant.concierge_addon &&
  restaurant.concierge_enabled &&
  !killSwitch;

/** An integrator's keys chat only where the restaurant's grant includes the scope; a restaurant's own keys need no grant. */
const grantAllowsChat = (grantScopes: string[] | null) => !grantScopes || grantScopes.includes('concierge:chat');

/**
 * The embed's bootstrap: every state that cannot be served is `{ enabled: false }`, never an error;
 * that includes a grant without concierge:chat, whose turns would be refused.
 */
export async function bootstrap(deps: ConciergeDeps, principal: KeyPrincipal, restaurantId: string): Promise<TConciergeBootstrap> {
  const found = await findConciergeContext(deps.db, principal.owner, restaurantId, { draftNames: false });
  if (!found || !grantAllowsChat(found.grantScopes) || !servable(found)) return { enabled: false };
  const { restaurant } = found;
  return {
    enabled: true,
    displayName: restaurant.concierge_display_name ?? restaurant.name,
    welcomeMessage: restaurant.concierge_welcome_message ?? 'Hi! Ask me anything about our menu.',
    disclosure: disclosureFor(restaurant.name),
    currency: restaurant.currency,
    publicMenuUrl: restaurant.public_menu_url,
    testMode: principal.environment === 'test',
  };
}

/** What a turn is grounded on beside the menu's index. */
export type TurnGrounds = Pick<ConciergeContext, 'restaurant' | 'draftNames'>;

/**
 * Checks made before the stream opens, answered as ordinary JSON errors; the draft names come with
 * them, in the same round trip.
 */
export async function prepareTurn(deps: ConciergeDeps, principal: KeyPrincipal, restaurantId: string): Promise<TurnGrounds> {
  const found = await findConciergeContext(deps.db, principal.owner, restaurantId, { draftNames: true });
  if (!found) throw new AppError('not_found', 'No such restaurant.');
  if (!grantAllowsChat(found.grantScopes)) {
    throw new AppError('forbidden_scope', "The restaurant's grant to your organisation does not include the concierge:chat scope.");
  }
  // Spec 3 and 7: a lapsed restaurant's data access is paused, its assistant's too: the code every read answers.
  requireActiveSubscription(found.restaurant);
  if (!servable(found)) {
    throw new AppError('concierge_unavailable', "This restaurant's assistant is not available right now.");
  }
  return found;
}

/**
 * A page's visitor (a publishable key's request, named by the gateway) spends from their own share of
 * the restaurant's month before the allowance, so that one visitor cannot spend the month. Past the
 * share the turn is refused before its stream opens, `429 rate_limited` with `Retry-After` until the
 * share renews (the end of the billing period): a loop of turns gets a refusal it can see, not a
 * stream of errors. Test keys spend no share (no allowance either), and neither does a turn no model
 * can answer (it ends with provider_not_configured).
 */
export async function admitVisitor(
  deps: ConciergeDeps,
  caller: { principal: KeyPrincipal; visitor: string | undefined },
  restaurant: RestaurantRow,
): Promise<void> {
  if (!caller.visitor || caller.principal.environment === 'test' || !deps.liveProvider) return;
  const now = deps.now();
  const period = billingPeriod(restaurant.billing_anchor, now);
  const allowed = await deps.visitorShares.take({
    restaurantId: restaurant.id,
    visitor: caller.visitor,
    period,
    allowance: restaurant.concierge_allowance,
  });
  if (!allowed) {
    const retryAfter = Math.max(1, Math.ceil((period.end.getTime() - now.getTime()) / 1000));
    throw new AppError('rate_limited', "You have used this month's share of the assistant on this restaurant's pages.", {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}

/**
 * What the model is told and what its reply is held to: the dishes the question retrieves from the
 * menu's index, the prompt built on them, and the guard over the reply.
 */
function groundTurn(index: MenuIndex, { restaurant, draftNames }: TurnGrounds, request: TChatRequest) {
  // One clause break between messages: a negation in one never reaches into another.
  const question = [request.message, ...(request.history ?? []).filter((m) => m.role === 'user').map((m) => m.content)].join('.\n');
  // No retrieved dish contains an allergen the question avoids ("no nuts"); the prompt says which ones it avoids.
  const { dishes: retrieved, excludedAllergens, avoided } = index.search(question);
  const system = buildSystemPrompt({
    restaurantName: restaurant.name,
    currency: restaurant.currency,
    houseNotes: restaurant.house_notes,
    dishes: retrieved,
    guestAvoids: excludedAllergens,
    avoidedDishes: avoided,
  });
  const guard = new ReplyGuard({
    findDish: (id) => index.find(id),
    avoided: avoidedOncePerDish(excludedAllergens),
    retrieved,
    draftNames,
    housePrices: pricesIn(restaurant.house_notes ?? ''),
  });
  return { question, retrieved, excludedAllergens, avoided, system, guard };
}

/**
 * One grounded turn, streamed: `meta` (with the disclosure) first, then `delta`s as the model writes,
 * `detail` for allergen questions, `cards` for real dishes only, and `done`; or `error` at any point.
 */
export async function runTurn(
  deps: ConciergeDeps,
  principal: KeyPrincipal,
  grounds: TurnGrounds,
  request: TChatRequest,
  sse: SseStream,
  signal: AbortSignal,
): Promise<void> {
  const { restaurant } = grounds;
  const turnId = newId('trn');
  const testMode = principal.environment === 'test';
  const mode = testMode ? 'test' : 'live';
  const started = performance.now();
  const ended = (outcome: TurnOutcome) => deps.conciergeMetrics?.turnEnded(mode, outcome);
  sse.send('meta', {
    turnId,
    restaurant: { id: restaurant.id, name: restaurant.name },
    disclosure: disclosureFor(restaurant.name),
    currency: restaurant.currency,
    testMode,
  });

  const provider = testMode ? deps.sandboxProvider : deps.liveProvider;
  // Before metering: a turn no model can answer must not spend the restaurant's allowance.
  if (!provider) {
    sse.send('error', { code: 'provider_not_configured', message: 'No model is configured for live conversations.' });
    ended('provider_not_configured');
    return;
  }

  // One allowance per restaurant for every channel; test keys spend none. A page's visitor has
  // already spent from their own share of it (`admitVisitor`, before the stream). The turn is grounded
  // while Postgres meters (work wasted only on a refused turn): the menu's index, found by the version
  // of the restaurant's row already read (built only when it moved), then the dishes and the prompt.
  const [granted, { question, retrieved, excludedAllergens, avoided, system, guard }] = await Promise.all([
    testMode ||
      deps.usageMeter.take({
        restaurantId: restaurant.id,
        metric: 'concierge_messages',
        periodStart: billingPeriod(restaurant.billing_anchor, deps.now()).start,
        limit: restaurant.concierge_allowance,
      }),
    deps.menuIndexes.get(restaurant.id, menuEtagOf(restaurant)).then((index) => groundTurn(index, grounds, request)),
  ]);
  if (!granted) {
    sse.send('error', { code: 'concierge_allowance_exhausted', message: "This restaurant's assistant has used this month's messages." });
    ended('allowance_exhausted');
    return;
  }
  let firstDelta = true;
  let finishReason: 'stop' | 'length' = 'stop';
  const sendDelta = (text: string) => {
    if (firstDelta) deps.conciergeMetrics?.firstDeltaAfter(mode, (performance.now() - started) / 1000);
    firstDelta = false;
    sse.send('delta', { text });
  };
  try {
    for await (const chunk of provider.stream({
      system,
      messages: [...(request.history ?? []), { role: 'user', content: request.message }],
      retrieved,
      avoided,
      signal,
      onUsage: deps.conciergeMetrics?.noteUsage,
      onCutAtLimit: () => (finishReason = 'length'),
    })) {
      const text = guard.push(chunk);
      if (text) sendDelta(text);
    }
    const rest = guard.flush(NOTHING_TO_SAY);
    if (rest) sendDelta(rest);
  } catch (err) {
    if (signal.aborted) return ended('aborted');
    // What the model wrote before it failed is judged like the rest and kept.
    const rest = guard.flush(null);
    if (rest) sendDelta(rest);
    deps.logger.warn({ err, restaurantId: restaurant.id }, 'model stream failed');
    sse.send('error', { code: 'upstream_error', message: 'The assistant stopped answering. Please try again.' });
    ended('model_error');
    return;
  }

  if (guard.withheld.length)
    deps.logger.info({ restaurantId: restaurant.id, turnId, withheld: guard.withheld }, 'model sentences withheld');
  // Only dishes of this menu become cards or details: an id the model made up goes nowhere.
  const cited = guard.cited;
  if (excludedAllergens.length || tokenize(question).some((token) => ALLERGEN_QUESTION_WORDS.has(token))) {
    // The dishes asked about that the guest must avoid come first: their allergens are the answer.
    for (const dish of [...avoided, ...(cited.length ? cited : retrieved.slice(0, 3))]) {
      sse.send('detail', { itemId: dish.id, allergens: dish.allergens, source: 'declared', note: ALLERGEN_NOTE });
    }
  }
  if (cited.length) {
    const menuUrl = restaurant.public_menu_url ?? `${deps.publicBaseUrl}/menu/${restaurant.id}`;
    const expiresAt = deps.signer?.expiry(deps.now());
    sse.send('cards', {
      cards: cited.map((dish) => ({
        itemId: dish.id,
        name: dish.name,
        priceCents: dish.priceCents,
        currency: restaurant.currency,
        thumbnailUrl: deps.signer && dish.thumbnailKey && expiresAt ? deps.signer.url(dish.thumbnailKey, expiresAt) : null,
        url: `${menuUrl}#item-${dish.slug}`,
      })),
    });
  }
  sse.send('done', { turnId, finishReason });
  ended('answered');
}
