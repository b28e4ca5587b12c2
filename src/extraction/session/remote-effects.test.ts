import { describe, expect, it } from 'vitest';
import { toolResultEntry } from '../../../test/helpers/transcript-lines.js';
import { findRemoteEffects } from './remote-effects.js';

const result = toolResultEntry;
const ran = (command: string, output = '', exit = 0) => result('Bash', { command }, output, exit);
const said = (entries: ReturnType<typeof toolResultEntry>[]) =>
  findRemoteEffects(entries).map((e) => e.summary);

describe('what the session wrote where others see it', () => {
  it('reads the gh commands that write: comments, issues, reviews, releases, a GraphQL mutation, a REST write', () => {
    expect(
      said([
        ran('gh issue create --title "Flaky test" --body x', 'https://github.com/o/r/issues/81\n'),
        ran('gh pr comment 75 --body "Addressed the review"'),
        ran('gh issue comment 1074 -b "Fixed in #1075"'),
        ran('gh pr review 75 --approve'),
        ran('gh issue close 80 --comment "duplicate"'),
        // closed before this session: nothing it did
        ran('gh pr close 222 --comment "superseded"', '! Pull request o/r#222 (MCP 2.0) is already closed'),
        ran('gh release create v1.2.0 --notes x', 'https://github.com/o/r/releases/tag/v1.2.0'),
        ran(
          "gh api graphql -f query='mutation($id: ID!, $body: String!) { addDiscussionComment(input: {discussionId: $id, body: $body}) { comment { url } } }' -f id=D_1 -f body='Thanks'",
          '{"data":{"addDiscussionComment":{"comment":{"url":"https://github.com/o/r/discussions/1074#discussioncomment-9"}}}}',
        ),
        ran('gh api repos/o/r/issues/5/labels -f "labels[]=bug"'),
        ran("gh api -f body='hello world' repos/o/r/issues/5/comments"),
        ran('gh pr comment --body "Rebased on main"', 'https://github.com/o/r/pull/75#issuecomment-2'),
        ran('gh api -X DELETE repos/o/r/git/refs/heads/old'),
        ran('npm publish --access public', '+ my-pkg@1.2.0'),
      ]),
    ).toEqual([
      'opened an issue (https://github.com/o/r/issues/81)',
      'commented on PR #75',
      'commented on issue #1074',
      'approved PR #75',
      'closed issue #80',
      'created release v1.2.0 (https://github.com/o/r/releases/tag/v1.2.0)',
      'GitHub addDiscussionComment (gh api graphql) (https://github.com/o/r/discussions/1074#discussioncomment-9)',
      'POST repos/o/r/issues/5/labels (gh api)',
      'POST repos/o/r/issues/5/comments (gh api)',
      "commented on the current branch's PR (https://github.com/o/r/pull/75#issuecomment-2)",
      'DELETE repos/o/r/git/refs/heads/old (gh api)',
      'published the package to npm',
    ]);
  });

  it('takes nothing from reads, a failed write, a dry run, a GraphQL query, or a command quoted in another', () => {
    expect(
      said([
        ran('gh pr view 75 --comments'),
        ran('gh issue list --state open'),
        ran('gh api graphql -f query=\'query { repository(owner:"o", name:"r") { id } }\''),
        ran('gh api repos/o/r/pulls/75/comments'),
        ran('gh api -X GET repos/o/r/issues -f state=open'),
        ran('gh pr comment 75 --body x', 'GraphQL: Could not resolve to a PullRequest', 1),
        ran('npm publish --dry-run', '+ my-pkg@1.2.0'),
        ran('cargo publish --dry-run'),
        // what a quoted body or message says is not a command
        ran(
          'gh issue comment 12 --body "see gh pr close 5"',
          'https://github.com/o/r/issues/12#issuecomment-1',
        ),
        ran('echo "gh pr review 3 --approve"'),
      ]),
    ).toEqual(['commented on issue #12 (https://github.com/o/r/issues/12#issuecomment-1)']);
  });

  it('reads an MCP tool that changes a tracker, with what it names; not one that reads, nor Baton or pull requests', () => {
    expect(
      said([
        result('mcp__linear-server__update_issue', { id: 'ENT-95', state: 'In Progress' }, '{"ok":true}'),
        result('mcp__linear-server__create_comment', { issueId: 'ENT-95', body: 'Done' }, '{"ok":true}'),
        result('mcp__linear-server__get_issue', { id: 'ENT-95' }, '{}'),
        result('mcp__github__list_issues', {}, '[]'),
        result('mcp__github__create_pull_request', { title: 'x' }, '{}'),
        result('mcp__baton__record_decision', { description: 'x' }, '{}'),
        result('mcp__filesystem__edit_file', { path: 'a.ts' }, '{}'),
        result('mcp__filesystem__create_directory', { path: 'src' }, '{}'),
        result('mcp__memory__create_entities', { entities: [] }, '{}'),
        result('mcp__jira__create_issue', '{"title": "Crash on start"}', '{}', 1),
      ]),
    ).toEqual(['linear-server update_issue ENT-95', 'linear-server create_comment ENT-95']);
  });
});
