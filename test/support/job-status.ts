import { sleep } from './stack';

/** Waits until the portfolio job `id` of the service at `base` is no longer queued or running; its last status. */
export async function finishedJob(base: string, id: string, attempts = 1200): Promise<any> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const body = await (await fetch(`${base}/flood-zone/jobs/${id}`)).json();
    if (body.status !== 'queued' && body.status !== 'running') return body;
    await sleep(100);
  }
  throw new Error(`job ${id} did not finish`);
}
