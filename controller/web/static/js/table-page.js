// Boots the table screen: languages, the live stream, the table renderer. The screen
// calls itself offline only after OFFLINE_AFTER ms without the server (a reconnect
// after a blip is not news), then says so and dims the last state it knows.
import { initI18n, onLanguage, t } from "./i18n.js";
import { connect } from "./live.js";
import { renderTable } from "./tablescreen.js";
import { tickClock } from "./clock.js";
import { revokeAlarm, setSound, soundOn } from "./alarm.js";

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

// The alarm sounds for a revoke event as it arrives (never for a snapshot on reconnect).
let heard = null;
function alarm(s) {
  if (!s.last || s.last === heard) return;
  heard = s.last;
  if (s.last.event === "revoke-flagged") revokeAlarm();
}
const store = connect((s) => { renderTable(root, s, ui); root.dataset.seq = String(s.state?.seq ?? 0); alarm(s); }, status);

const soundButton = document.querySelector("#sound");
function showSound() {
  const on = soundOn();
  soundButton.setAttribute("aria-pressed", String(on));
  soundButton.classList.toggle("off", !on);
  soundButton.title = t(on ? "sound.on" : "sound.off");
}
soundButton?.addEventListener("click", () => { setSound(!soundOn()); showSound(); });
showSound();

// The last trick on demand: the button, or L on a keyboard by the kiosk.
function recall() {
  ui.recall = true;
  draw();
  clearTimeout(recallTimer);
  recallTimer = setTimeout(() => { ui.recall = false; draw(); }, RECALL_FOR);
}
document.querySelector("#recall")?.addEventListener("click", recall);
document.addEventListener("keydown", (e) => { if (e.key === "l" || e.key === "L") recall(); });
onLanguage(() => { draw(); showSound(); });
setInterval(() => { if (store.state) tickClock(root, store.state); }, 1000); // time left, between states
setInterval(draw, 5000); // lets a reader's fault leave the messages when its time is up
