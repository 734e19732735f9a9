/**
 * Status pages as HTML, rendered on the server from a StatusView (no build step, no
 * framework). Every value is escaped as it enters the markup; the inline script, allowed by
 * a per-page nonce in the Content-Security-Policy, polls the view's JSON and redraws the
 * sections with textContent only, and sorts a table by the column header clicked.
 */
import type { Facts, Row, StatusView, Table } from './status-cells.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1a1a1a}
h1{font-size:1.3rem}h2{font-size:1.05rem;margin-top:1.5rem}
table{border-collapse:collapse}th,td{padding:.25rem .6rem;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}
th.num,td.num{text-align:right}thead th{background:#f3f3f3}
table.sortable thead th{cursor:pointer}
tr.marked td{background:#fde2e1}tr.marked td:first-child{font-weight:600}
dl{display:grid;grid-template-columns:max-content auto;gap:.2rem 1rem}dt{color:#555}
dd{margin:0}dd.marked{color:#b00020;font-weight:600}
.meta{color:#666}form.inline{display:inline}
label{display:block;margin:.5rem 0}input{font:inherit;padding:.2rem}
.error{color:#b00020}
`;

const SCRIPT = `
(() => {
  const page = document.body.dataset;
  const sorting = {};
  const cellKey = (cell) => (cell.sort === undefined || cell.sort === null ? cell.text : cell.sort);
  function compare(a, b) {
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a).localeCompare(String(b));
  }
  function renderRows(table, section) {
    const body = table.tBodies[0];
    const state = sorting[section.id];
    const rows = section.rows.slice();
    if (state) rows.sort((x, y) => state.dir * compare(cellKey(x.cells[state.column]), cellKey(y.cells[state.column])));
    body.replaceChildren();
    if (rows.length === 0) {
      const tr = body.insertRow();
      const td = tr.insertCell();
      td.colSpan = section.columns.length;
      td.textContent = section.empty;
      return;
    }
    for (const row of rows) {
      const tr = body.insertRow();
      if (row.mark) { tr.className = 'marked'; tr.dataset.mark = row.mark; }
      row.cells.forEach((cell, index) => {
        const td = tr.insertCell();
        if (section.columns[index].numeric) td.className = 'num';
        if (cell.href) {
          const link = document.createElement('a');
          link.href = cell.href;
          link.textContent = cell.text;
          td.append(link);
        } else {
          td.textContent = cell.text;
        }
      });
    }
  }
  function renderFacts(list, section) {
    list.replaceChildren();
    for (const item of section.items) {
      const dt = document.createElement('dt');
      dt.textContent = item.label;
      const dd = document.createElement('dd');
      dd.textContent = item.value;
      if (item.mark) { dd.className = 'marked'; dd.dataset.mark = item.mark; }
      list.append(dt, dd);
    }
  }
  let view;
  function render() {
    for (const section of view.sections) {
      const element = document.getElementById(section.id);
      if (!element) continue;
      if (section.kind === 'table') renderRows(element, section);
      else renderFacts(element, section);
    }
    document.getElementById('generated').textContent = view.generated_at;
  }
  document.querySelectorAll('table.sortable').forEach((table) => {
    table.tHead.rows[0].querySelectorAll('th').forEach((th, column) => {
      th.addEventListener('click', () => {
        const current = sorting[table.id];
        sorting[table.id] = { column, dir: current && current.column === column ? -current.dir : 1 };
        table.dataset.sortColumn = String(column);
        table.dataset.sortDir = sorting[table.id].dir > 0 ? 'asc' : 'desc';
        if (view) render();
      });
    });
  });
  async function refresh() {
    try {
      const response = await fetch(page.source, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
      if (response.status === 401) { location.reload(); return; }
      if (response.ok) { view = await response.json(); render(); }
    } catch (error) {
      document.getElementById('generated').textContent = 'not refreshed: ' + error;
    }
  }
  setInterval(refresh, Number(page.refreshMs));
  void refresh();
})();
`;

export const REFRESH_MS = 2000;

function tableHtml(table: Table): string {
  const head = table.columns.map((column) => `<th${column.numeric ? ' class="num"' : ''}>${escapeHtml(column.label)}</th>`).join('');
  const rows =
    table.rows.length === 0
      ? `<tr><td colspan="${table.columns.length}">${escapeHtml(table.empty)}</td></tr>`
      : table.rows.map((row) => rowHtml(row, table)).join('');
  return `<h2>${escapeHtml(table.caption)}</h2>
<table id="${escapeHtml(table.id)}"${table.sortable ? ' class="sortable"' : ''}><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

function rowHtml(row: Row, table: Table): string {
  const cells = row.cells
    .map((cell, index) => {
      const text = cell.href ? `<a href="${escapeHtml(cell.href)}">${escapeHtml(cell.text)}</a>` : escapeHtml(cell.text);
      return `<td${table.columns[index]?.numeric ? ' class="num"' : ''}>${text}</td>`;
    })
    .join('');
  return row.mark ? `<tr class="marked" data-mark="${escapeHtml(row.mark)}">${cells}</tr>` : `<tr>${cells}</tr>`;
}

function factsHtml(facts: Facts): string {
  const items = facts.items
    .map(
      (item) =>
        `<dt>${escapeHtml(item.label)}</dt><dd${item.mark ? ` class="marked" data-mark="${escapeHtml(item.mark)}"` : ''}>${escapeHtml(item.value)}</dd>`,
    )
    .join('');
  return `<h2>${escapeHtml(facts.caption)}</h2>\n<dl id="${escapeHtml(facts.id)}">${items}</dl>`;
}

function documentHtml(title: string, nonce: string, body: string, dataset = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body${dataset}>
${body}
</body></html>
`;
}

/** A status page; `signedIn` adds the sign-out button (not shown to loopback callers, who never signed in). */
export function statusPageHtml(view: StatusView, nonce: string, signedIn: boolean): string {
  const signOut = signedIn ? ' · <form class="inline" method="post" action="/status/logout"><button type="submit">Sign out</button></form>' : '';
  const sections = view.sections.map((section) => (section.kind === 'table' ? tableHtml(section) : factsHtml(section))).join('\n');
  const body = `<h1>${escapeHtml(view.title)}</h1>
<p class="meta">As of <span id="generated">${escapeHtml(view.generated_at)}</span>, refreshed every ${REFRESH_MS / 1000} s${signOut}</p>
${sections}
<script nonce="${nonce}">${SCRIPT}</script>`;
  return documentHtml(view.title, nonce, body, ` data-source="${escapeHtml(view.source)}" data-refresh-ms="${REFRESH_MS}"`);
}

/** The sign-in form; `problem` is said above it after a failed attempt. */
export function loginPageHtml(nonce: string, values: { application: string; login: string }, problem?: string): string {
  const body = `<h1>loyaltyd status: sign in</h1>
<p>Sign in with an enterprise-interface user of this node.</p>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/status/login">
<label>External application id <input name="user_external_application_id" value="${escapeHtml(values.application)}" required></label>
<label>Login <input name="login" value="${escapeHtml(values.login)}" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>`;
  return documentHtml('loyaltyd status: sign in', nonce, body);
}
