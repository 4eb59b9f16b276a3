/** A worker thread of the polygon pool (polygon-work.client.ts): runs one polygon task at a time, off the event loop. */
import type { MessagePort } from 'node:worker_threads';
import { type PolygonTask, runPolygonTask } from './polygon-tasks';

/** A task, and the port on which its start is told (its deadline counts from then, not from its wait in the queue). */
export interface PolygonJob {
  task: PolygonTask;
  started: MessagePort;
}

export default function polygonWorker({ task, started }: PolygonJob): unknown {
  started.postMessage('started');
  started.close();
  return runPolygonTask(task);
}
