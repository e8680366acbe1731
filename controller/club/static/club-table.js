// The club's page for one table is the table screen itself: the same page, stylesheet and
// renderer as /table on the table's own Pi (served here from controller/web/static).
// Only the feed differs: instead of the table's WebSocket, this polls the club's copy of
// what the table published to the broker (its public state and latest public events),
// and dims the screen as offline while the table's broker link is down.
import { initI18n, onLanguage } from "/static/js/i18n.js";
import { STICKY_UNTIL } from "/static/js/live.js";
import { renderTable } from "/static/js/tablescreen.js";

const POLL_MS = 1000;
const name = decodeURIComponent(location.pathname.split("/").pop());
const root = document.body;
const ui = { offline: false, recall: false };
const store = { state: null, recent: [], flag: null, notice: null, last: null };
let shown = "";  // what the screen shows now: redrawn only when it changes

// The standing revoke flag, read from the recent events as the live feed keeps it.
function flagOf(recent) {
  let flag = null;
  for (const ev of recent) {
    if (ev.event === "revoke-flagged") flag = ev;
    else if (STICKY_UNTIL.has(ev.event)) flag = null;
  }
  return flag;
}

function header() {
  const bar = document.querySelector("header.bar");
  const back = document.createElement("a");
  back.href = "/";
  back.className = "club-back";
  back.dataset.role = "club-table";
  back.textContent = `← ${name}`;
  bar?.prepend(back);
  document.title = `${name} — ${document.title}`;
}

function conn(up) {
  const c = document.querySelector('[data-role="conn"]');
  if (c) { c.textContent = up ? "●" : "○"; c.className = up ? "conn up" : "conn down"; }
  root.dataset.live = up ? "1" : "0";
  root.dataset.offline = ui.offline ? "1" : "0";
}

const draw = () => { if (store.state) renderTable(root, store, ui); };

async function poll() {
  let t;
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(name)}`, { cache: "no-store" });
    if (!r.ok) throw new Error(r.statusText);
    t = await r.json();
  } catch {
    ui.offline = true; conn(false); draw(); return;
  }
  ui.offline = t.status === "offline";
  conn(!ui.offline);
  const now = `${t.have}/${t.state?.seq ?? ""}/${t.status}`;
  if (now === shown) return;
  shown = now;
  store.state = t.state || { setup: null, view: null };
  store.recent = t.recent || [];
  store.flag = flagOf(store.recent);
  store.last = store.recent.length ? store.recent[store.recent.length - 1] : null;
  draw();
  root.dataset.seq = String(t.have);
}

await initI18n(document.querySelector("#lang"));
header();
onLanguage(draw);
document.querySelector("#recall")?.addEventListener("click", () => {
  ui.recall = true; draw();
  setTimeout(() => { ui.recall = false; draw(); }, 6000);
});
await poll();
setInterval(poll, POLL_MS);
