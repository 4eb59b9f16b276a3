import { RunningEmulators, startEmulators, StartEmulatorsOptions } from '../emulators';
import { RunningApp, startApp } from './app-harness';

export interface Stack {
  emulators: RunningEmulators;
  service: RunningApp;
  close(): Promise<void>;
}

/** Upstream emulators plus the real service pointed at them. */
export async function startStack(env: Record<string, string> = {}, emulatorOptions: StartEmulatorsOptions = {}): Promise<Stack> {
  const emulators = await startEmulators(emulatorOptions);
  const service = await startApp({ ...emulators.env, ...env });
  return {
    emulators,
    service,
    close: async () => {
      await service.close();
      await emulators.close();
    },
  };
}

/** Upstream calls of one lookup to the NFHL point-query endpoint, all layers together. */
export function nfhlQueries(emulators: RunningEmulators): number {
  return emulators.nfhl.callCount({ endpoint: 'query' });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
