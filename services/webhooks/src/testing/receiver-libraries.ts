import type { IncomingHttpHeaders } from 'node:http';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { Webhook as SvixWebhook } from 'svix';

// Our deliveries verified as receivers verify them: with the libraries they would install, not with
// our own code. Each throws when the signature does not verify.

/** Header values as the libraries take them (one string each). */
export function headerStrings(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([name, value]) => [name, value]),
  );
}

// constructEvent needs no API key that works: it only checks the signature, offline.
const stripe = new Stripe('sk_test_verification_only');

/** The default scheme: its X-Service-Signature has the form of Stripe's header (t=…,v1=…). */
export function verifyWithStripe(received: { body: string; headers: IncomingHttpHeaders }, secret: string): unknown {
  return stripe.webhooks.constructEvent(received.body, String(received.headers['x-service-signature']), secret);
}

/** Standard Webhooks, with its reference library; returns the parsed body. */
export function verifyWithStandardWebhooks(received: { body: string; headers: IncomingHttpHeaders }, secret: string): unknown {
  return new StandardWebhook(secret).verify(received.body, headerStrings(received.headers));
}

/** Standard Webhooks, with Svix's library (which reads the unbranded webhook-* headers too). */
export function verifyWithSvix(received: { body: string; headers: IncomingHttpHeaders }, secret: string): void {
  new SvixWebhook(secret).verify(received.body, headerStrings(received.headers));
}
