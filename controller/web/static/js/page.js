// Boots a public page (table screen or dashboard): languages, live stream, rendering.
import { initI18n, onLanguage } from "./i18n.js";
import { connect } from "./live.js";
import { render } from "./render.js";
import { tickClock } from "./clock.js";

const root = document.body;
await initI18n(document.querySelector("#lang"));
const conn = document.querySelector('[data-role="conn"]');
const store = connect(
  (s) => { render(root, s); root.dataset.seq = String(s.state?.seq ?? 0); },
  (up) => { if (conn) { conn.dataset.i18n = up ? "conn.live" : "conn.offline"; conn.textContent = ""; conn.className = up ? "conn up" : "conn down"; import("./i18n.js").then((m) => m.apply(conn.parentElement)); } root.dataset.live = up ? "1" : "0"; },
);
onLanguage(() => { if (store.state) render(root, store); });
setInterval(() => { if (store.state) render(root, store); }, 4000); // lets a notice expire
setInterval(() => { if (store.state) tickClock(root, store.state); }, 1000); // time left, between states
