// The admin page: PIN login, then table commands. Every POST carries the CSRF token
// the server gave this session; the cookie itself is HttpOnly and SameSite=Strict.
import { initI18n, onLanguage, t } from "./i18n.js";
import { connect } from "./live.js";
import { el, render, revokeShown } from "./render.js";

let csrf = "";
const status = document.querySelector("#status");
const say = (text, ok = true) => { status.textContent = text; status.className = ok ? "ok" : "err"; };

async function post(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify({ ...body, csrf }), credentials: "same-origin" });
  const data = await r.json().catch(() => ({}));
  return { ok: r.ok, status: r.status, data };
}

async function session() {
  const s = await (await fetch("/admin/api/session", { credentials: "same-origin" })).json();
  csrf = s.csrf;
  document.querySelector("#login").hidden = s.admin;
  document.querySelector("#panel").hidden = !s.admin;
}

async function command(name, args = {}) {
  const r = await post("/admin/api/command", { name, args });
  if (r.status === 401) { await session(); return say(t("admin.pin"), false); }
  if (!r.ok) return say(r.data.detail || String(r.status), false);
  const refused = (r.data.events || []).find((e) => ["command-refused", "impossible", "ignored"].includes(e.event));
  say(refused ? refused.message : t("admin.done"), !refused);
}

document.querySelector("#login").addEventListener("submit", async (e) => {
  e.preventDefault();
  const r = await post("/admin/api/login", { pin: document.querySelector("#pin").value });
  document.querySelector("#pin").value = "";
  if (r.ok) { csrf = r.data.csrf; say(""); await session(); }
  else say(r.status === 429 ? t("admin.toomany") : t("admin.wrongpin"), false);
});

document.querySelector("#logout").addEventListener("click", async () => { await post("/admin/api/logout", {}); await session(); });

document.querySelectorAll("[data-cmd]").forEach((b) => b.addEventListener("click", (e) => {
  e.preventDefault();
  if (b.dataset.confirm && !confirm(t(b.dataset.confirm))) return;
  command(b.dataset.cmd, b.dataset.args ? JSON.parse(b.dataset.args) : {});
}));

document.querySelector("#secret").addEventListener("submit", (e) => {
  e.preventDefault();
  const sel = document.querySelector("#secret-suit");
  const suit = sel.value;
  sel.value = ""; // the choice leaves the screen at once
  if (suit) command("hide-trump", { suit });
});

let presets = [];
async function loadPresets() {
  presets = (await (await fetch("/api/presets")).json()).presets;
  const sel = document.querySelector("#preset");
  sel.replaceChildren(...presets.map((p) => new Option(p.name, p.name)));
  sel.addEventListener("change", showPreset);
  showPreset();
}
function showPreset() {
  const p = presets.find((x) => x.name === document.querySelector("#preset").value);
  document.querySelector("#preset-summary").textContent = p ? p.summary : "";
  document.querySelector("#variants").replaceChildren(...(p ? p.variants : []).map((v) =>
    el("label", {}, el("input", { type: "checkbox", value: v, class: "variant" }), ` ${v}`)));
}

document.querySelector("#newmatch").addEventListener("submit", (e) => {
  e.preventDefault();
  const options = {};
  for (const line of document.querySelector("#options").value.split("\n")) {
    const [k, ...rest] = line.split("=");
    if (k.trim() && rest.length) options[k.trim()] = rest.join("=").trim();
  }
  command("new-match", {
    preset: document.querySelector("#preset").value,
    variants: [...document.querySelectorAll(".variant:checked")].map((c) => c.value),
    options,
    seats: [...document.querySelectorAll(".seatname")].map((i) => i.value),
    first_dealer: Number(document.querySelector("#first-dealer").value),
    knowledge: document.querySelector("#knowledge").value,
  });
});

await initI18n(document.querySelector("#lang"));
await session();
await loadPresets();
const root = document.body;
// The public stream never names a proof still in a hand; the admin fetches the proofs.
let proofsFor = "";
async function fetchProofs(s) {
  const f = revokeShown(s);
  const key = f ? `${s.state?.seq}` : "";
  if (!f || f.proof || key === proofsFor) return;
  proofsFor = key;
  const r = await fetch("/admin/api/state", { credentials: "same-origin" });
  if (!r.ok) return;
  const v = (await r.json()).view;
  s.proofs = (v?.revokes || []).map((x) => ({ ...x, hand: v.hand }));
  render(root, s);
}
const store = connect((s) => { render(root, s); fetchProofs(s); }, (up) => { root.dataset.live = up ? "1" : "0"; });
onLanguage(() => { if (store.state) render(root, store); });
