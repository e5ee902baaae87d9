import { describe, expect, it } from 'vitest';
import { withRun } from './record.js';

const doc = ['# Benchmarks', '', '## Gateway', '', 'figures', '', '## Catalog', '', 'more figures', ''].join('\n');

describe('withRun', () => {
  it('creates the section at the end of the document the first time', () => {
    expect(withRun(doc, 'Runs', '### run 1\n\n| a |\n')).toBe(doc.trimEnd() + '\n\n## Runs\n\n### run 1\n\n| a |\n');
  });

  it('adds later runs at the end of their section, after the runs before them', () => {
    const twice = withRun(withRun(doc, 'Runs', '### run 1'), 'Runs', '### run 2');
    expect(twice).toBe(doc.trimEnd() + '\n\n## Runs\n\n### run 1\n\n### run 2\n');
  });

  it('keeps a section in the middle of the document in its place, before the next one', () => {
    expect(withRun(doc, 'Gateway', '### run 1')).toBe(
      ['# Benchmarks', '', '## Gateway', '', 'figures', '', '### run 1', '', '## Catalog', '', 'more figures', ''].join('\n'),
    );
  });
});
