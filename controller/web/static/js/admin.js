// The admin page: PIN login, then the commands that make sense now (the server tries
// each on a copy of the match: GET /admin/api/commands), and a typed new-match form.
// Every POST carries the CSRF token the server gave this session; the cookie itself is
// HttpOnly and SameSite=Strict.
import { initI18n, onLanguage, t } from "./i18n.js";
import { connect } from "./live.js";
import { render, revokeShown } from "./render.js";
import { optionsForm } from "./options-form.js";
import { tickClock } from "./clock.js";

let csrf = "";
let admin = false;
const status = document.querySelector("#status");
const say = (text, ok = true) => { status.textContent = text; status.className = ok ? "ok" : "err"; };

async function post(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify({ ...body, csrf }), credentials: "same-origin" });
  const data = await r.json().catch(() => ({}));
  return { ok: r.ok, status: r.status, data, busy: r.headers.get("X-Pin-Queue") === "busy" };
}

async function session() {
  const s = await (await fetch("/admin/api/session", { credentials: "same-origin" })).json();
  csrf = s.csrf;
  admin = s.admin;
  document.querySelector("#login").hidden = s.admin;
  document.querySelector("#panel").hidden = !s.admin;
  if (admin) { refreshCommands(true); proofsFor = ""; if (store.state) fetchProofs(store); loadVoice(); }
}

// ---- the referee's voice: volume and mute, live, kept by the server across restarts
const voiceBox = document.querySelector("#voice");
const volume = document.querySelector("#voice-volume");
const mute = document.querySelector("#voice-mute");
const volumeOut = document.querySelector("#voice-volume-out");

function showVoice(v) {
  voiceBox.hidden = !v.available;
  if (!v.available) return;
  volume.value = String(v.volume);
  volumeOut.textContent = `${v.volume}%`;
  mute.checked = v.mute;
  volume.disabled = v.mute;
}

async function loadVoice() {
  const r = await fetch("/admin/api/voice", { credentials: "same-origin" });
  if (r.ok) showVoice(await r.json());
}

async function setVoice(change) {
  const r = await post("/admin/api/voice", change);
  if (r.status === 401) { await session(); return say(t("admin.pin"), false); }
  if (!r.ok) return say(r.data.detail || String(r.status), false);
  showVoice(r.data);
  say(t("admin.voice.saved"));
}
volume.addEventListener("input", () => { volumeOut.textContent = `${volume.value}%`; });
volume.addEventListener("change", () => setVoice({ volume: Number(volume.value) }));
mute.addEventListener("change", () => setVoice({ mute: mute.checked }));

async function command(name, args = {}) {
  // the last command's "Done" must not stand for this one until the table has answered
  say(t("admin.sending"));
  const r = await post("/admin/api/command", { name, args });
  if (r.status === 401) { await session(); return say(t("admin.pin"), false); }
  if (!r.ok) return say(r.data.detail || String(r.status), false);
  const refused = (r.data.events || []).find((e) => ["command-refused", "impossible", "ignored"].includes(e.event));
  say(refused ? refused.message : t("admin.done"), !refused);
  refreshCommands(true);
}

document.querySelector("#login").addEventListener("submit", async (e) => {
  e.preventDefault();
  const pin = document.querySelector("#pin").value;
  let r = await post("/admin/api/login", { pin });
  // others' PINs being checked (many phones guessing at once): not a wrong PIN, so the
  // page asks again by itself, a second later, for up to a minute
  for (let tries = 0; r.status === 429 && r.busy && tries < 60; tries += 1) {
    await new Promise((done) => setTimeout(done, 1000));
    r = await post("/admin/api/login", { pin });
  }
  document.querySelector("#pin").value = "";
  if (r.ok) { csrf = r.data.csrf; say(""); await session(); }
  else say(r.status === 429 ? t("admin.toomany") : t("admin.wrongpin"), false);
});

document.querySelector("#logout").addEventListener("click", async () => { await post("/admin/api/logout", {}); await session(); });

// ---- the commands valid now: one button each, saying what it will do
const CONFIRM = { "end-match": "admin.confirm.end" };
const SUIT_SIGN = { S: "♠", H: "♥", D: "♦", C: "♣" };
let commandsSeq = -1;
let loading = false;

function commandButton(c) {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.cmd = c.name;
  b.dataset.args = JSON.stringify(c.args);
  b.className = `cmd cmd-${c.name}`;
  // the sentence in the page's language (cmd.<key>), else the server's English one
  const vars = { ...c.vars };
  if (c.args.suit) vars.suit = `${t(`suit.${c.args.suit}`)} ${SUIT_SIGN[c.args.suit]}`;
  const said = t(`cmd.${c.key}`, vars);
  const text = said === `cmd.${c.key}` ? c.says : said;
  b.textContent = text.charAt(0).toUpperCase() + text.slice(1);
  b.addEventListener("click", () => {
    if (CONFIRM[c.name] && !confirm(t(CONFIRM[c.name]))) return;
    command(c.name, c.args);
  });
  return b;
}

async function refreshCommands(force = false) {
  const seq = store?.state?.seq ?? 0;
  if (!admin || loading || (!force && seq === commandsSeq)) return;
  loading = true;
  commandsSeq = seq; // asked for this state: a failure waits for the next one
  try {
    const r = await fetch("/admin/api/commands", { credentials: "same-origin" });
    if (r.status === 401) { await session(); return; }
    if (!r.ok) return;
    const data = await r.json();
    const list = data.commands.filter((c) => c.name !== "new-match" && c.name !== "hide-trump");
    document.querySelector("#commands").replaceChildren(...list.map(commandButton));
    // the hidden trump's suit is chosen in its own form, never shown on a button
    document.querySelector("#secret").hidden = !data.commands.some((c) => c.name === "hide-trump");
  } finally {
    loading = false;
    if ((store?.state?.seq ?? 0) !== commandsSeq) setTimeout(() => refreshCommands(), 50);
  }
}

document.querySelector("#secret").addEventListener("submit", (e) => {
  e.preventDefault();
  const sel = document.querySelector("#secret-suit");
  const suit = sel.value;
  sel.value = ""; // the choice leaves the screen at once
  if (suit) command("hide-trump", { suit });
});

// ---- new match: seat names default to the current ones, the dealer by name
const seatInputs = [...document.querySelectorAll(".seatname")];
const dealer = document.querySelector("#first-dealer");
let seatsTouched = false;
seatInputs.forEach((i) => i.addEventListener("input", () => { seatsTouched = true; dealerNames(); }));

function dealerNames() {
  const keep = dealer.value || "0";
  dealer.replaceChildren(...seatInputs.map((i, n) => new Option(i.value || t("seat", { n }), String(n))));
  dealer.value = keep;
}

function currentSeats(state) {
  if (seatsTouched) return;
  const seats = state?.setup?.seats || [0, 1, 2, 3].map((n) => t("seat", { n }));
  seatInputs.forEach((i, n) => { i.value = seats[n] ?? ""; });
  dealerNames();
  // the first time: the next dealer in turn, and the preset being played
  if (state?.view && !dealer.dataset.set) {
    dealer.dataset.set = "1";
    dealer.value = String((state.view.dealer + 1) & 3);
    const sel = document.querySelector("#preset");
    // the table's preset, unless it is the one shown or the organiser has begun typing
    // options already (the first state can come late on a busy Pi: rebuilding the form
    // then threw away what was typed)
    const typed = form && Object.keys(form.changed()).length > 0;
    if (state.setup?.preset && state.setup.preset !== sel.value && !typed
        && presets?.presets.some((p) => p.name === state.setup.preset)) { sel.value = state.setup.preset; showPreset(); }
  }
}

let presets = null;
let form = null;
async function loadPresets() {
  presets = await (await fetch("/api/presets")).json();
  const sel = document.querySelector("#preset");
  sel.replaceChildren(...presets.presets.map((p) => new Option(p.name, p.name)));
  sel.addEventListener("change", showPreset);
  showPreset();
}

function showPreset() {
  const p = presets.presets.find((x) => x.name === document.querySelector("#preset").value);
  document.querySelector("#preset-summary").textContent = p ? p.summary : "";
  document.querySelector("#variants").replaceChildren(...(p ? p.variants : []).map((v) => {
    const l = document.createElement("label");
    const c = document.createElement("input");
    Object.assign(c, { type: "checkbox", value: v, className: "variant" });
    l.append(c, ` ${v}`);
    return l;
  }));
  form = optionsForm(document.querySelector("#options"), presets.options, p ? p.options : {});
}

document.querySelector("#newmatch").addEventListener("submit", (e) => {
  e.preventDefault();
  command("new-match", {
    preset: document.querySelector("#preset").value,
    variants: [...document.querySelectorAll(".variant:checked")].map((c) => c.value),
    options: form ? form.changed() : {},
    seats: seatInputs.map((i) => i.value),
    first_dealer: Number(dealer.value),
    knowledge: document.querySelector("#knowledge").value,
  });
});

await initI18n(document.querySelector("#lang"));
await loadPresets();
const root = document.body;
// The public stream never names a proof still in a hand; the admin fetches the proofs.
let proofsFor = "";
async function fetchProofs(s) {
  if (!admin) return; // nothing to ask before the PIN
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
const conn = document.querySelector('[data-role="conn"]');
const store = connect((s) => { render(root, s); fetchProofs(s); currentSeats(s.state); refreshCommands(); },
  (up) => { root.dataset.live = up ? "1" : "0"; if (conn) { conn.textContent = up ? "●" : "○"; conn.className = up ? "conn up" : "conn down"; } });
await session();
onLanguage(() => { if (store.state) render(root, store); dealerNames(); });
setInterval(() => { if (store.state) tickClock(root, store.state); }, 1000); // time left, between states
