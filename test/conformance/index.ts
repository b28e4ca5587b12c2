import type { StoreBackend } from './backend.js';
import { executorCases } from './executor-cases.js';
import { leaseCases } from './lease-cases.js';
import { serviceCases } from './service-cases.js';
import { storeCases } from './store-cases.js';
import { workQueueCases } from './work-queue-cases.js';
import { workerCases } from './worker-cases.js';

export { postgresBackend, sqliteBackend, type StoreBackend } from './backend.js';

/** The whole conformance suite for one backend: the Store's behaviours and the service's use cases over it. */
export function runConformance(backend: StoreBackend): void {
  storeCases(backend);
  serviceCases(backend);
  executorCases(backend);
  leaseCases(backend);
  workQueueCases(backend);
  workerCases(backend);
}
