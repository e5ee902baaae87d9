import { malformedRequests } from '../malformed-requests.ts';
import { exchange, isEnvelope, type RawAnswer } from '../raw-http.ts';
import { ms, n, type CaseReport, type Row } from '../report.ts';
import type { FaultContext } from './context.ts';

const SOCKETS = 50;
const ANSWER_TIMEOUT_MS = 3000;

/** How an answer that is not the envelope looked: "400 empty body", "closed without an answer", ... */
function describe(answer: RawAnswer): string {
  if (answer.status === null)
    return answer.outcome === 'timeout' ? `no answer in ${ANSWER_TIMEOUT_MS / 1000} s` : 'closed without an answer';
  if (answer.status === 0) return 'not HTTP';
  return `${answer.status} ${answer.body.length ? 'non-envelope body' : 'empty body'}`;
}

interface Tally {
  category: string;
  sent: number;
  enveloped: number;
  /** A lenient parse that served the request (2xx/3xx): not an error, not an envelope. */
  accepted: number;
  others: Map<string, number>;
}

/** Case 5: at least 10,000 malformed requests over raw sockets; every answer should be the envelope. */
export async function malformed(ctx: FaultContext): Promise<CaseReport> {
  const total = Math.max(1, Number(process.env.FAULT_MALFORMED ?? 10_000));
  const corpus = malformedRequests({
    port: ctx.stack.gatewayPort,
    secretKey: ctx.seeded.secretKey,
    restaurantId: ctx.seeded.restaurantId,
    endpointId: ctx.seeded.endpointId,
  });
  const byVariant = new Map<string, Tally>(
    corpus.map((r) => [`${r.category} / ${r.name}`, { category: r.category, sent: 0, enveloped: 0, accepted: 0, others: new Map() }]),
  );
  const startedAt = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const request = corpus[next++ % corpus.length]!;
      const tally = byVariant.get(`${request.category} / ${request.name}`)!;
      const answer = await exchange(ctx.stack.gatewayPort, request.bytes, ANSWER_TIMEOUT_MS);
      tally.sent++;
      if (isEnvelope(answer)) tally.enveloped++;
      else if (answer.status !== null && answer.status >= 200 && answer.status < 400) tally.accepted++;
      else tally.others.set(describe(answer), (tally.others.get(describe(answer)) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: SOCKETS }, worker));
  const tookMs = Date.now() - startedAt;

  const categories = new Map<string, Tally>();
  for (const tally of byVariant.values()) {
    const sum = categories.get(tally.category) ?? {
      category: tally.category,
      sent: 0,
      enveloped: 0,
      accepted: 0,
      others: new Map<string, number>(),
    };
    sum.sent += tally.sent;
    sum.enveloped += tally.enveloped;
    sum.accepted += tally.accepted;
    for (const [kind, c] of tally.others) sum.others.set(kind, (sum.others.get(kind) ?? 0) + c);
    categories.set(tally.category, sum);
  }
  const unenveloped = (t: Tally) => t.sent - t.enveloped - t.accepted;
  const rows: Row[] = [...categories.values()].map((t) => ({
    figure: t.category,
    value: `${n(t.enveloped)} of ${n(t.sent)} enveloped${t.accepted ? `, ${n(t.accepted)} served` : ''}${t.others.size ? `; ${[...t.others].map(([kind, c]) => `${kind} ×${n(c)}`).join(', ')}` : ''}`,
    target: 'every error enveloped',
    met: unenveloped(t) === 0,
  }));
  const all = [...categories.values()];
  const sent = all.reduce((sum, t) => sum + t.sent, 0);
  const enveloped = all.reduce((sum, t) => sum + t.enveloped, 0);
  const accepted = all.reduce((sum, t) => sum + t.accepted, 0);
  rows.push({
    figure: 'all malformed requests',
    value: `${n(enveloped)} of ${n(sent)} enveloped, ${n(accepted)} served, ${n(sent - enveloped - accepted)} not enveloped (in ${ms(tookMs)})`,
    target: `≥ 10,000 sent, every error enveloped`,
    met: sent >= 10_000 && sent - enveloped - accepted === 0,
  });
  const failing = [...byVariant].filter(([, t]) => unenveloped(t) > 0 || t.accepted > 0);
  return {
    title: `5. ${n(sent)} malformed requests over raw sockets to the gateway`,
    rows,
    notes: [
      `${corpus.length} kinds of request in ${categories.size} categories, sent in turn over ${SOCKETS} connections at a time; "served" is a lenient parse answered 2xx/3xx (no error to envelope).`,
      ...failing.map(
        ([name, t]) =>
          `${name}: ${[...(t.accepted ? [`served ×${n(t.accepted)}`] : []), ...[...t.others].map(([kind, c]) => `${kind} ×${n(c)}`)].join(', ')}`,
      ),
    ],
  };
}
