import type { BatonClient } from '../client/baton-client.js';
import type { StoreInUse } from '../config/store-in-use.js';

/**
 * Whether the Baton server the hooks write to can see this folder: it finds the workflow of a folder by its path, on
 * its own machine, so where the path does not exist there every hook fails and records nothing. What is wrong and what
 * to do, said by the server (`elsewhereHint`), or null when the server sees the folder, or the store is no server, or
 * the server cannot be asked (said apart, where it is opened).
 */
export async function folderUnseenByServer(
  open: () => Promise<BatonClient>,
  store: StoreInUse,
  folder: string,
): Promise<string | null> {
  if (store.kind !== 'server') return null;
  try {
    await (await open()).get({ workflowId: 'current', cwd: folder });
    return null;
  } catch (e) {
    const message = (e as Error).message;
    if (!/ is not a directory on the server/.test(message)) return null;
    return `the Baton server ${store.place} has no folder ${folder} on its machine, so the agent hooks here record nothing (each fails saying so): ${message.replace(/^.*? is not a directory on the server: /, '')}`;
  }
}
