import { isFenceLine } from '../clip.js';

/** A markdown heading's line, its level (one to six `#`) apart. */
const heading = /^(#{1,6})(?=[ \t]|$)/;

/** How far a quoted text's headings go down: under the briefing's `##` title and its `###` sections. */
const DEPTH = 3;

/**
 * The agent's own words quoted in a section of the briefing (its last message, its compaction summary), their markdown
 * headings moved three levels down (`## Summary` to `##### Summary`, at most six), so that they nest under the
 * section that quotes them: an agent's `### 🚀 Next Steps` read as a section of the briefing beside What to Do Next,
 * and cut the briefing at its line where Baton splits it into sections. Code blocks are left as they are.
 */
export function nestedHeadings(text: string): string {
  let inCode = false;
  return text
    .split('\n')
    .map((line) => {
      if (isFenceLine(line)) inCode = !inCode;
      if (inCode) return line;
      return line.replace(heading, (h) => '#'.repeat(Math.min(6, h.length + DEPTH)));
    })
    .join('\n');
}
