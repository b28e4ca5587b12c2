/**
 * Claude Code wraps a compaction summary in words for the conversation it continues: an opening line ("This session
 * is being continued from a previous conversation that ran out of context. The summary below covers ..."), where to
 * read the whole transcript, and "Please continue the conversation ... without asking the user any further questions".
 * Shown to another session, they contradict its briefing (which may ask it to check with the user first), so the
 * context shows the summary without them; the record keeps the summary whole.
 */
const opening =
  /^\s*This session is being continued from a previous conversation[^\n]*(?:\n[ \t]*(?:The (?:summary|conversation) (?:below|is summarized below)[^\n]*)?)?\n*/;
const transcriptHint =
  /^[ \t]*If you need specific details from before compaction\b[^\n]*read the full transcript at:[^\n]*$/gm;
const goOn =
  /^[ \t]*Please continue the conversation from where we left (?:it )?off without asking the user any further questions\.[^\n]*$/gm;

/**
 * The reasoning Claude Code's compaction writes before its summary ("Analysis:\nLet me chronologically analyze ...",
 * then "Summary:\n1. Primary Request and Intent: ..."): the summary says what it concluded.
 */
const analysisThenSummary = /^Analysis:[ \t]*\n[\s\S]*?\n[ \t]*Summary:[ \t]*\n/;

/** The summary itself, without the words Claude Code addresses to the conversation it continues, nor its analysis. */
export function compactionBody(text: string): string {
  return text
    .replace(opening, '')
    .replace(transcriptHint, '')
    .replace(goOn, '')
    .trim()
    .replace(analysisThenSummary, '')
    .trim();
}
