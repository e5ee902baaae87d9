import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LabelledHistogram } from './histogram.js';

describe('a labelled histogram', () => {
  it('exports cumulative buckets, +Inf, sum and count per series, with the registry’s default labels', async () => {
    const registry = new Registry();
    registry.setDefaultLabels({ service: 'svc' });
    const histogram = new LabelledHistogram('http_request_duration_seconds', 'Request time.', ['route', 'method', 'status_class'], [0.01, 0.1], registry);
    for (const seconds of [0.005, 0.01, 0.05, 3]) histogram.observe(['/things/:id', 'GET', '2xx'], seconds);
    histogram.observe(['unmatched', 'POST', '4xx'], 0.2);
    histogram.observe(['/things/:id', 'POST', '2xx'], 0.2);
    const text = await registry.metrics();
    const series = '{route="/things/:id",method="GET",status_class="2xx"';
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    for (const line of [
      `http_request_duration_seconds_bucket${series},le="0.01",service="svc"} 2`,
      `http_request_duration_seconds_bucket${series},le="0.1",service="svc"} 3`,
      `http_request_duration_seconds_bucket${series},le="+Inf",service="svc"} 4`,
      `http_request_duration_seconds_sum${series},service="svc"} 3.065`,
      `http_request_duration_seconds_count${series},service="svc"} 4`,
      'http_request_duration_seconds_bucket{route="unmatched",method="POST",status_class="4xx",le="0.1",service="svc"} 0',
      'http_request_duration_seconds_count{route="unmatched",method="POST",status_class="4xx",service="svc"} 1',
      'http_request_duration_seconds_count{route="/things/:id",method="POST",status_class="2xx",service="svc"} 1',
    ])
      expect(text).toContain(line);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('http_request_duration_seconds_count');
  });
});
