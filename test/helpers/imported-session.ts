import { LocalClient } from '../../src/client/local-client.js';
import { importTranscriptFile } from '../../src/integrations/transcripts/import-file.js';
import { corpusPath } from './corpus.js';
import { makeRepo } from './git-repo.js';
import { makeService } from './service.js';

/**
 * A corpus transcript (`transcript`, its path under the corpus) read as `baton import` reads it, into a workflow
 * (`title`) of a fresh repository and store: the client to ask, the repository, and the service to close.
 */
export async function importedSession(
  transcript: string,
  source: Parameters<typeof importTranscriptFile>[3] = 'claude-code',
  title = 'imported',
) {
  const service = makeService();
  const client = new LocalClient(service);
  const repo = makeRepo();
  await client.create({ title, tasks: [], cwd: repo });
  await importTranscriptFile(client, { cwd: repo }, corpusPath(transcript), source);
  return { service, client, repo };
}
