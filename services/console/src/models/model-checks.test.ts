import { createDishModel, DEMO_MENU } from '@partner/sample-dish';
import { describe, expect, it } from 'vitest';
import { checkGlb, checkThumbnail, checkUsdz } from './model-checks.js';

// The demo seed uploads these models through the console; an upload refused here would leave the demo
// without its dishes.
describe('the demo menu’s dish models', () => {
  it.each(DEMO_MENU.flatMap(({ dishes }) => dishes))('$name ($model) passes the upload checks', async ({ model }) => {
    const { glb, usdz, thumbnail } = createDishModel(model);
    expect(await checkGlb(glb)).toEqual({ ok: true });
    expect(await checkUsdz(usdz)).toEqual({ ok: true });
    expect(await checkThumbnail(thumbnail)).toEqual({ ok: true, kind: 'png' });
  });
});
