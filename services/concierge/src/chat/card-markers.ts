const MARKER = /\[\[(itm_[A-Za-z0-9]{1,60})\]\]/g;
const LONGEST_MARKER = 70;

/**
 * Takes `[[itm_…]]` markers out of streamed model text: the text flows on without them and the ids
 * are collected for cards. A marker split across chunks is held back until it completes.
 */
export class CardMarkerFilter {
  private pending = '';
  readonly ids: string[] = [];

  push(chunk: string): string {
    const text = this.pending + chunk;
    this.pending = '';
    const visible = text.replace(MARKER, (_match, id: string) => {
      if (!this.ids.includes(id)) this.ids.push(id);
      return '';
    });
    let open = visible.lastIndexOf('[');
    // A '[' near the end may be the start of a marker still arriving; from its first bracket on,
    // or a chunk ending inside `[[itm_` would let the first '[' through and the rest never match.
    if (open > 0 && visible[open - 1] === '[') open--;
    if (open !== -1 && visible.length - open < LONGEST_MARKER && !visible.slice(open).includes(']]')) {
      this.pending = visible.slice(open);
      return visible.slice(0, open);
    }
    return visible;
  }

  flush(): string {
    const rest = this.pending;
    this.pending = '';
    return rest;
  }
}
