/**
 * The key of a transcript's import mark: the agent session that wrote it and the file's name (a sub-agent's transcript
 * shares its parent's session id; the file name tells them apart).
 */
export const transcriptKey = (sessionId: string, fileName: string) => `${sessionId}:${fileName}`;

/** Whether an import mark's key is that of a transcript the agent session wrote (its own, or a sub-agent's). */
export const writtenBy = (key: string, sessionId: string) => key.startsWith(`${sessionId}:`);
