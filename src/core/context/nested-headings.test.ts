import { describe, expect, it } from 'vitest';
import { nestedHeadings } from './nested-headings.js';

describe('the headings of the agent words a briefing quotes', () => {
  it('go three levels down, at most to six', () => {
    expect(nestedHeadings('## Summary\nDone.\n### 🚀 Next Steps\n1. Review\n##### Deep\n#')).toBe(
      '##### Summary\nDone.\n###### 🚀 Next Steps\n1. Review\n###### Deep\n####',
    );
  });

  it('leave code blocks, and what only starts with #, as they are', () => {
    const text = '```md\n## In a file\n```\n#hashtag and #3\n    ### indented is code\n## After';
    expect(nestedHeadings(text)).toBe(
      '```md\n## In a file\n```\n#hashtag and #3\n    ### indented is code\n##### After',
    );
  });
});
