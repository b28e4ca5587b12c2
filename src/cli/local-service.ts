import { LocalClient } from '../client/local-client.js';
import type { BatonClient } from '../client/baton-client.js';
import { BatonError } from '../core/index.js';
import type { BatonService } from '../service/index.js';

/** The service behind an in-process client: the disk commands work on a local database and local files. */
export function localService(client: BatonClient): BatonService {
  if (client instanceof LocalClient) return client.service;
  throw new BatonError(
    'unavailable',
    'this command reads and writes local files and a local database; run it without a server URL',
  );
}
