/**
 * What a status page shows, as data: the server renders it to HTML (status-html.ts) and the
 * page's script renders the same structure again from `…/json` every few seconds, so both
 * show one thing. Text only — no markup travels in it.
 */
export interface Cell {
  text: string;
  /** What the column sorts by when it is not the text (numbers, timestamps). */
  sort?: number | string | null;
  /** A link within the status pages. */
  href?: string;
}

export interface Row {
  cells: Cell[];
  /** A row to look at (a silent store, a failed round): its class and a word saying why. */
  mark?: string;
}

export interface Table {
  kind: 'table';
  id: string;
  caption: string;
  columns: { label: string; numeric?: boolean }[];
  rows: Row[];
  /** What the table says when it has no rows. */
  empty: string;
  sortable?: boolean;
}

export interface Facts {
  kind: 'facts';
  id: string;
  caption: string;
  items: { label: string; value: string; mark?: string }[];
}

export interface StatusView {
  title: string;
  /** Where the page's script polls for the next view. */
  source: string;
  generated_at: string;
  sections: (Table | Facts)[];
}

/** `2026-11-25 21:03:04 UTC (12 s ago)`, or `never`. */
export function timeAgo(iso: string | null | undefined, now: number): string {
  if (!iso) return 'never';
  const shown = `${iso.slice(0, 19).replace('T', ' ')} UTC`;
  return `${shown} (${duration(Math.max(0, Math.round((now - Date.parse(iso)) / 1000)))} ago)`;
}

/** `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`; `—` when unknown. */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

export function numberCell(value: number | null | undefined): Cell {
  return { text: value === null || value === undefined ? '—' : String(value), sort: value ?? null };
}

export function durationCell(seconds: number | null | undefined): Cell {
  return { text: duration(seconds), sort: seconds ?? null };
}

export function timeCell(iso: string | null | undefined, now: number): Cell {
  return { text: timeAgo(iso, now), sort: iso ?? '' };
}
