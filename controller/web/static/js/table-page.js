// Boots the table screen: languages, the live stream, the table renderer. The screen
// calls itself offline only after OFFLINE_AFTER ms without the server (a reconnect
// after a blip is not news), then says so and dims the last state it knows.
import { initI18n, onLanguage } from "./i18n.js";
import { connect } from "./live.js";
import { renderTable } from "./tablescreen.js";
import { tickClock } from "./clock.js";

const OFFLINE_AFTER = 3000;
const RECALL_FOR = 6000;
const root = document.body;
const ui = { offline: false, recall: false };
let offlineTimer = null;
let recallTimer = null;

await initI18n(document.querySelector("#lang"));
const conn = document.querySelector('[data-role="conn"]');
const draw = () => { if (store.state) renderTable(root, store, ui); };

function status(up) {
  if (conn) { conn.textContent = up ? "●" : "○"; conn.className = up ? "conn up" : "conn down"; }
  root.dataset.live = up ? "1" : "0";
  clearTimeout(offlineTimer);
  if (up) { ui.offline = false; root.dataset.offline = "0"; draw(); return; }
  offlineTimer = setTimeout(() => { ui.offline = true; root.dataset.offline = "1"; draw(); }, OFFLINE_AFTER);
}

const store = connect((s) => { renderTable(root, s, ui); root.dataset.seq = String(s.state?.seq ?? 0); }, status);

// The last trick on demand: the button, or L on a keyboard by the kiosk.
function recall() {
  ui.recall = true;
  draw();
  clearTimeout(recallTimer);
  recallTimer = setTimeout(() => { ui.recall = false; draw(); }, RECALL_FOR);
}
document.querySelector("#recall")?.addEventListener("click", recall);
document.addEventListener("keydown", (e) => { if (e.key === "l" || e.key === "L") recall(); });
onLanguage(draw);
setInterval(() => { if (store.state) tickClock(root, store.state); }, 1000); // time left, between states
