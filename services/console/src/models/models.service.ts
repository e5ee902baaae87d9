import { createHash } from 'node:crypto';
import { findLiveItemById } from '../menu/menu.repository.js';
import { findRestaurantById, type ItemRow } from '@partner/db';
import { presentItem } from '@partner/views';
import { settleModelUpload, startModelUpload } from './models.repository.js';
import { AppError } from '@partner/contracts';
import { type AssetKind, assetStorageKey } from '@partner/assets';
import type { ConsoleDeps } from '../deps.js';
import { recordItemEvent, writeItemChange } from '../menu/menu.service.js';
import { checkGlb, checkThumbnail, checkUsdz } from './model-checks.js';

export const MODEL_FILES = ['glb', 'usdz', 'thumbnail'] as const;

type UploadOutcome = { status: 'ready'; keys: { glb: string; usdz: string; thumbnail: string } } | { status: 'failed'; reason: string };

/**
 * Writes an upload's outcome and its event (`model.ready` or `model.failed`) if the upload is still the
 * item's latest. When a newer upload started meanwhile, that one decides the model and this outcome is
 * dropped (null), as it is when the item was deleted.
 */
function settle(deps: ConsoleDeps, item: ItemRow, attempt: Date, outcome: UploadOutcome): Promise<ItemRow | null> {
  return writeItemChange(deps, { restaurantId: item.restaurant_id, itemId: item.id }, async (tx) => {
    const settled = await settleModelUpload(
      tx,
      item.id,
      attempt,
      outcome.status === 'ready'
        ? {
            model_status: 'ready',
            model_failure_reason: null,
            model_glb_key: outcome.keys.glb,
            model_usdz_key: outcome.keys.usdz,
            model_thumbnail_key: outcome.keys.thumbnail,
          }
        : { model_status: 'failed', model_failure_reason: outcome.reason },
    );
    if (!settled) return null;
    if (outcome.status === 'ready') await recordItemEvent(tx, 'model.ready', settled);
    else await recordItemEvent(tx, 'model.failed', settled, { reason: outcome.reason });
    return settled;
  });
}

/**
 * An uploaded model goes processing → ready (files checked, stored under content-addressed keys,
 * `model.ready`) or → failed (`model.failed` with the reason, answered as 422 model_invalid). Files of
 * a failed upload are not kept; the previous ready model's files stay where their URLs point. Uploads
 * of one item may overlap: the one that started last decides, and an earlier one still running when it
 * started answers 409 conflict instead of overwriting it.
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
  const started = await writeItemChange(deps, { restaurantId: item.restaurant_id, itemId: item.id }, (tx) => startModelUpload(tx, item.id));
  if (!started) throw new AppError('not_found', 'No such item.');
  const attempt = started.model_updated_at!;

  // Whatever stops this upload after `processing` settles it as failed, so a model never stays
  // `processing`; settling is a no-op once a newer upload has taken over or this one is ready.
  let failureReason = 'the files could not be checked';
  try {
    const [glb, usdz, thumbnail] = MODEL_FILES.map((name) => files.get(name)!) as [Buffer, Buffer, Buffer];
    const [glbCheck, usdzCheck, thumbnailCheck] = await Promise.all([checkGlb(glb), checkUsdz(usdz), checkThumbnail(thumbnail)]);
    const failure = [glbCheck, usdzCheck, thumbnailCheck].find((check) => !check.ok);
    if (failure && !failure.ok) {
      failureReason = failure.reason;
      throw new AppError('model_invalid', `The model was refused: ${failure.reason}.`);
    }

    failureReason = 'the files could not be stored';
    const store = async (data: Buffer, kind: AssetKind) => {
      const key = assetStorageKey(createHash('sha256').update(data).digest('hex'), kind);
      await deps.storage.put(key, data);
      return key;
    };
    const thumbnailKind = thumbnailCheck.ok ? thumbnailCheck.kind : 'png';
    const [glbKey, usdzKey, thumbnailKey] = await Promise.all([
      store(glb, 'glb'),
      store(usdz, 'usdz'),
      store(thumbnail, thumbnailKind),
    ]).catch((err: unknown) => {
      throw new AppError('service_unavailable', 'The model files could not be stored. Upload them again shortly.', { cause: err });
    });

    failureReason = 'the model could not be saved';
    const ready = await settle(deps, item, attempt, { status: 'ready', keys: { glb: glbKey, usdz: usdzKey, thumbnail: thumbnailKey } });
    if (!ready) {
      if (!(await findLiveItemById(deps.db, item.id))) throw new AppError('not_found', 'No such item.');
      throw new AppError(
        'conflict',
        'A newer upload of this model started while this one was processed; the newer upload decides the model.',
      );
    }
    const restaurant = await findRestaurantById(deps.db, ready.restaurant_id);
    return presentItem(ready, restaurant?.currency ?? 'USD');
  } catch (err) {
    await settle(deps, item, attempt, { status: 'failed', reason: failureReason }).catch((failure: unknown) =>
      deps.logger.error({ err: failure }, 'could not mark a model failed'),
    );
    throw err;
  }
}
