import type { AgentDriver, AgentSignal, AgentStreamParser } from '../../service/runtime/runtime-ports.js';
import { LineBuffer } from '../line-buffer.js';

/** Any CLI: the prompt on stdin (and in BATON_PROMPT), each output line a message; exit 0 is success. */
class LineSignals implements AgentStreamParser {
  private readonly buffer = new LineBuffer();
  private last: string | null = null;

  push(chunk: string): AgentSignal[] {
    return this.lines(this.buffer.push(chunk));
  }

  end(): AgentSignal[] {
    const out = this.lines(this.buffer.end());
    out.push({ type: 'result', is_error: false, subtype: 'exit', text: this.last });
    return out;
  }

  private lines(lines: { text: string }[]): AgentSignal[] {
    const out: AgentSignal[] = [];
    for (const { text } of lines) {
      if (!text.trim()) continue;
      this.last = text;
      out.push({ type: 'message', text });
    }
    return out;
  }
}

export const commandDriver: AgentDriver = {
  adapter: 'command',
  command(profile, input) {
    const env: Record<string, string> = { BATON_PROMPT: input.prompt };
    if (input.resumeToken) env.BATON_RESUME_TOKEN = input.resumeToken;
    return { bin: profile.bin, args: [...profile.args], cwd: input.cwd, env, stdin: input.prompt };
  },
  parser: () => new LineSignals(),
};
