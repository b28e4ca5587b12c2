/** What an agent-time clock carries from one parse of a transcript to the next (`BuilderState`). */
export interface AgentTimeState {
  /** The turns already over, in milliseconds. */
  worked_ms: number;
  /** The first and the latest time of the turn under way (null before any entry). */
  turn_from: string | null;
  turn_to: string | null;
}

/**
 * The time an agent worked in a transcript: each turn from the user's prompt to the last entry of that turn, summed.
 * The time between a turn's last entry and the next prompt is the user's (reading, away overnight, waiting for a
 * usage limit to reset), not the agent's: a transcript's first-to-last span would count it.
 */
export class AgentTime {
  private worked: number;
  private from: string | null;
  private to: string | null;

  constructor(s: AgentTimeState = { worked_ms: 0, turn_from: null, turn_to: null }) {
    this.worked = s.worked_ms;
    this.from = s.turn_from;
    this.to = s.turn_to;
  }

  /** An entry at `at`; `prompt`: the user's prompt, which begins a turn. */
  entry(at: string, prompt: boolean): void {
    if (prompt || this.from === null || this.to === null) {
      this.worked += this.open();
      this.from = at;
      this.to = at;
    } else if (at > this.to) this.to = at;
  }

  /** Milliseconds worked, the turn under way included; null before any entry. */
  ms(): number | null {
    return this.from === null ? null : this.worked + this.open();
  }

  state(): AgentTimeState {
    return { worked_ms: this.worked, turn_from: this.from, turn_to: this.to };
  }

  private open(): number {
    if (this.from === null || this.to === null) return 0;
    const ms = Date.parse(this.to) - Date.parse(this.from);
    return Number.isFinite(ms) ? Math.max(0, ms) : 0;
  }
}
