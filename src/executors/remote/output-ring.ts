/**
 * What the executor daemon keeps of a run's output: the last `max` characters, cut at a line boundary when there
 * is one (so an agent's JSON lines stay whole), with the offset of the first character kept. Offsets count
 * characters (UTF-16 code units) of the run's whole output since it started.
 */
export class OutputRing {
  private text = '';
  /** The offset of the first character kept; everything before it was dropped. */
  first = 0;

  constructor(readonly max: number) {}

  /** The offset just past the last character written. */
  get end() {
    return this.first + this.text.length;
  }

  get kept() {
    return this.text.length;
  }

  append(data: string) {
    this.text += data;
    if (this.text.length <= this.max) return;
    let cut = this.text.length - this.max;
    const newline = this.text.indexOf('\n', cut - 1);
    if (newline !== -1) cut = newline + 1;
    this.text = this.text.slice(cut);
    this.first += cut;
  }

  /** The text kept from `offset` on, and where it starts (after `offset` when the part before was dropped). */
  from(offset: number): { offset: number; data: string } {
    const start = Math.min(Math.max(offset, this.first), this.end);
    return { offset: start, data: this.text.slice(start - this.first) };
  }
}
