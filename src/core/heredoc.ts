/**
 * A here-document in a shell line: its opening (`<<'EOF'`, `<<-EOF`, `<<\EOF`, `<<"END-OF-FILE"`) with the rest of
 * its line, its body, and its closing tag on a line of its own. Groups: 1 the opening line, 2 the quote, 3 the tag,
 * 4 the body. Its body is content (a file written, a commit message), not commands.
 */
export const heredoc = /(<<-?[ \t]*\\?(['"]?)([A-Za-z_][\w.-]*)\2[^\n]*)\n([^]*?)\n[ \t]*\3[ \t]*(?=\n|$)/g;

/** A shell line with its here-documents' bodies left out (their openings kept). */
export const withoutHeredocBodies = (command: string): string => command.replace(heredoc, '$1');
