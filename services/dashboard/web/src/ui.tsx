import type { ButtonHTMLAttributes, ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ApiError } from './api';

// The dashboard's few building blocks: plain elements with the platform's look (styles.css), labelled
// for assistive technology, usable at phone width.

export function PageTitle(props: { children: ComponentChildren; action?: ComponentChildren }) {
  return (
    <div class="page-title">
      <h1>{props.children}</h1>
      {props.action}
    </div>
  );
}

/** A form on a card of its own, named by its heading; `onSubmit` gets the form, the page not reloaded. */
export function CardForm(props: { title: string; onSubmit: (form: HTMLFormElement) => void; children: ComponentChildren }) {
  return (
    <form
      class="card stack"
      aria-label={props.title}
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit(event.currentTarget);
      }}
    >
      <h2>{props.title}</h2>
      {props.children}
    </form>
  );
}

export function Section(props: { title: string; children: ComponentChildren; action?: ComponentChildren }) {
  const id = `section-${props.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section class="card" aria-labelledby={id}>
      <div class="card-head">
        <h2 id={id}>{props.title}</h2>
        {props.action}
      </div>
      {props.children}
    </section>
  );
}

export function Button(props: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'danger' | 'plain'; busy?: boolean }) {
  const { variant = 'plain', busy, children, disabled, ...rest } = props;
  return (
    <button type="button" class={`button ${variant}`} disabled={Boolean(disabled) || busy} aria-busy={busy ? 'true' : undefined} {...rest}>
      {children}
    </button>
  );
}

/** A table that scrolls sideways on a narrow screen, reachable by keyboard to do so. */
export function TableScroll(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={props.label}>
      {props.children}
    </div>
  );
}

export function Field(props: { label: string; hint?: string; children: ComponentChildren }) {
  return (
    <label class="field">
      <span class="field-label">{props.label}</span>
      {props.children}
      {props.hint && <span class="field-hint">{props.hint}</span>}
    </label>
  );
}

/** An action's failure, in the API's words, announced to screen readers. */
export function ErrorNote(props: { error: ApiError | undefined }) {
  if (!props.error) return null;
  return (
    <p class="note error" role="alert">
      {props.error.message}
    </p>
  );
}

export function Note(props: { tone?: 'info' | 'success' | 'warning'; children: ComponentChildren }) {
  return (
    <div class={`note ${props.tone ?? 'info'}`} role={props.tone === 'warning' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

export function Loading() {
  return (
    <p class="muted" role="status">
      Loading…
    </p>
  );
}

export function Badge(props: { tone: 'good' | 'bad' | 'neutral' | 'warn'; children: ComponentChildren }) {
  return <span class={`badge ${props.tone}`}>{props.children}</span>;
}

/** A secret shown once: the value, a copy button, and the warning that it will not be shown again. */
export function ShownOnce(props: { label: string; value: string; onDone: () => void }) {
  return (
    <div class="shown-once" role="region" aria-label={props.label}>
      <p>
        <strong>{props.label}.</strong> Copy it now: it is shown only this once.
      </p>
      <div class="copy-row">
        <code class="secret" data-testid="shown-once">
          {props.value}
        </code>
        <CopyButton value={props.value} />
      </div>
      <Button onClick={props.onDone}>Done</Button>
    </div>
  );
}

/** Copies `value`, and says so only once it is copied: a secret shown once must not be lost to a false "Copied". */
export function CopyButton(props: { value: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    // No clipboard at all on a plain-http page: a refusal like any other.
    const copied = await Promise.resolve()
      .then(() => navigator.clipboard.writeText(props.value))
      .then(
        () => true,
        () => false,
      );
    setState(copied ? 'copied' : 'failed');
    if (copied) setTimeout(() => setState('idle'), 2000);
  };
  return (
    <Button onClick={() => void copy()} aria-live="polite">
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text and copy it' : (props.label ?? 'Copy')}
    </Button>
  );
}

/** Used against a limit, as a bar with its numbers in words (the chart of the overview). */
export function Meter(props: { label: string; used: number; limit: number; unit: string }) {
  const share = props.limit > 0 ? Math.min(props.used / props.limit, 1) : 0;
  const tone = share >= 1 ? 'bad' : share >= 0.8 ? 'warn' : 'good';
  return (
    <figure class="meter">
      <figcaption>
        <span>{props.label}</span>
        <span>
          {props.used.toLocaleString('en')} of {props.limit.toLocaleString('en')} {props.unit}
        </span>
      </figcaption>
      <svg viewBox="0 0 100 8" preserveAspectRatio="none" role="img" aria-label={`${Math.round(share * 100)} % used`}>
        <rect width="100" height="8" rx="4" class="meter-track" />
        <rect width={share * 100} height="8" rx="4" class={`meter-fill ${tone}`} />
      </svg>
    </figure>
  );
}

export const formatDate = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' }) : '—';
