/**
 * The API origin the embed talks to: `data-api` on the script tag when given, otherwise the origin
 * the script itself was served from (the gateway).
 */
export function apiBaseOf(script: HTMLScriptElement | null): string {
  const override = script?.getAttribute('data-api');
  if (override) return override.replace(/\/+$/, '');
  if (script?.src) return new URL(script.src).origin;
  return location.origin;
}
