// A thread of `MenuIndexBuilds`: reads a restaurant's published dishes itself and builds their index,
// so neither the rows nor the build ever touch the event loop; the arrays move back without a copy.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createDb, type DbOptions } from '@partner/db';
import type { BuildReply } from './menu-index-builds.js';
import { MenuIndexBuilder } from './menu-index-builder.js';
import { readPublishedMenu } from './menu-snapshot.repository.js';

// Below the event loop's priority when the cores are busy. On Linux this names the calling thread only.
setPriority(10);
const db = createDb({ ...(workerData as DbOptions), max: 1 });
const port = parentPort!;

port.on('message', (restaurantId: string) => {
  const builder = new MenuIndexBuilder();
  readPublishedMenu(db, restaurantId, (dishes) => dishes.forEach((dish) => builder.add(dish))).then(
    (etag) => {
      const data = builder.finish(etag);
      const buffers = Object.values(data).flatMap((value: unknown) => (ArrayBuffer.isView(value) ? [value.buffer as ArrayBuffer] : []));
      port.postMessage({ data } satisfies BuildReply, buffers);
    },
    (err: Error) => port.postMessage({ error: err } satisfies BuildReply),
  );
});
