import { createHash } from 'node:crypto';
import { findLiveItemById, findRestaurantById, insertOutboxEvent, presentItem, updateLiveItem, type ItemRow } from '@partner/db';
import { AppError, newId } from '@partner/kit';
import { assetStorageKey, type AssetKind } from '@partner/platform';
import type { ConsoleDeps } from '../deps.js';
import { recordItemEvent, writeItemChange } from '../menu/menu.service.js';
import { checkGlb, checkThumbnail, checkUsdz } from './model-checks.js';

export const MODEL_FILES = ['glb', 'usdz', 'thumbnail'] as const;

async function markFailed(deps: ConsoleDeps, item: ItemRow, reason: string): Promise<void> {
  await writeItemChange(deps, { restaurantId: item.restaurant_id, itemId: item.id }, async (tx) => {
    const failed = await updateLiveItem(tx, item.id, {
      model_status: 'failed',
      model_failure_reason: reason,
      model_updated_at: new Date(),
    });
    if (!failed) return;
    await insertOutboxEvent(tx, {
      id: newId('evt'),
      type: 'model.failed',
      restaurantId: failed.restaurant_id,
      data: { itemId: failed.id, restaurantId: failed.restaurant_id, itemSlug: failed.slug, itemName: failed.name, reason },
    });
  });
}

/**
 * An uploaded model goes processing → ready (files checked, stored under content-addressed keys,
 * `model.ready`) or → failed (`model.failed` with the reason, answered as 422 model_invalid). Files of
 * a failed upload are not kept; the previous ready model's files stay where their URLs point.
 */
export async function uploadModel(deps: ConsoleDeps, itemId: string, files: Map<string, Buffer>) {
  const item = await findLiveItemById(deps.db, itemId);
  if (!item) throw new AppError('not_found', 'No such item.');
  const missing = MODEL_FILES.filter((name) => !files.get(name)?.length);
  if (missing.length) {
    throw new AppError('invalid_request', `Send all three files: glb, usdz and thumbnail (missing: ${missing.join(', ')}).`, {
      param: missing[0],
    });
  }
  await writeItemChange(deps, { restaurantId: item.restaurant_id, itemId: item.id }, (tx) =>
    updateLiveItem(tx, item.id, { model_status: 'processing', model_failure_reason: null, model_updated_at: new Date() }),
  );

  const [glb, usdz, thumbnail] = MODEL_FILES.map((name) => files.get(name)!) as [Buffer, Buffer, Buffer];
  const [glbCheck, usdzCheck, thumbnailCheck] = await Promise.all([checkGlb(glb), checkUsdz(usdz), checkThumbnail(thumbnail)]);
  const failure = [glbCheck, usdzCheck, thumbnailCheck].find((check) => !check.ok);
  if (failure && !failure.ok) {
    await markFailed(deps, item, failure.reason);
    throw new AppError('model_invalid', `The model was refused: ${failure.reason}.`);
  }

  const store = async (data: Buffer, kind: AssetKind) => {
    const key = assetStorageKey(createHash('sha256').update(data).digest('hex'), kind);
    await deps.storage.put(key, data);
    return key;
  };
  const thumbnailKind = thumbnailCheck.ok ? thumbnailCheck.kind : 'png';
  let keys: string[];
  try {
    keys = await Promise.all([store(glb, 'glb'), store(usdz, 'usdz'), store(thumbnail, thumbnailKind)]);
  } catch (err) {
    // The model must not stay `processing` for ever: it failed, and the owner can upload again.
    await markFailed(deps, item, 'the files could not be stored').catch((failure: unknown) =>
      deps.logger.error({ err: failure }, 'could not mark a model failed'),
    );
    throw new AppError('service_unavailable', 'The model files could not be stored. Upload them again shortly.', { cause: err });
  }
  const [glbKey, usdzKey, thumbnailKey] = keys as [string, string, string];
  const ready = await writeItemChange(deps, { restaurantId: item.restaurant_id, itemId: item.id }, async (tx) => {
    const updated = await updateLiveItem(tx, item.id, {
      model_status: 'ready',
      model_failure_reason: null,
      model_glb_key: glbKey,
      model_usdz_key: usdzKey,
      model_thumbnail_key: thumbnailKey,
      model_updated_at: new Date(),
    });
    if (!updated) throw new AppError('not_found', 'No such item.');
    await recordItemEvent(tx, 'model.ready', updated);
    return updated;
  });
  const restaurant = await findRestaurantById(deps.db, ready.restaurant_id);
  return presentItem(ready, restaurant?.currency ?? 'USD');
}
