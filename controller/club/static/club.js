// The club scoreboard's pages: poll the JSON API and draw with DOM nodes (no innerHTML
// from data, so a player's name can never become markup).
const $ = (sel) => document.querySelector(sel);
const $$ = (sel) => document.querySelectorAll(sel);
const el = (tag, attrs = {}, ...kids) => {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  for (const k of kids) n.append(k instanceof Node ? k : document.createTextNode(String(k ?? "")));
  return n;
};
const get = async (url) => { const r = await fetch(url, { cache: "no-store" }); if (!r.ok) throw new Error(r.statusText); return r.json(); };
const clock = (t) => (t ? new Date(t * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "");
const statusText = (t) => (t.restarted ? "journal began again: director"
  : t.status === "offline" ? `offline since ${clock(t.since)}` : t.status);
const teams = (seats) => (seats ? [`${seats[0]} & ${seats[2]}`, `${seats[1]} & ${seats[3]}`] : ["—", "—"]);
const result = (m) => (m.abandoned ? "abandoned" : !m.over ? "playing"
  : m.winner === null ? "drawn" : `${m.teams[m.winner].join(" & ")} won`);
const page = document.body.dataset.page;
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const trump = (t) => (t.trump ? `trump ${SUITS[t.trump] ?? t.trump}` : "");

function tile(t) {
  const [a, b] = teams(t.seats);
  const score = t.score || ["", ""];
  const facts = [t.hand ? `hand ${t.hand}` : "", trump(t), t.phase || ""].filter(Boolean).join(" · ");
  return el("a", { class: "tile", href: `/table/${encodeURIComponent(t.name)}`, "data-table": t.name },
    el("h2", {}, t.name, el("span", { class: `status ${t.status}` }, statusText(t))),
    el("div", { class: "teams" }, el("span", { class: "team0" }, a), el("b", { class: "big" }, score[0]),
      el("span", { class: "team1" }, b), el("b", { class: "big" }, score[1])),
    el("div", { class: "muted" }, facts));
}

// The night picker: standings and figures for a chosen night (tonight unless the address
// says ?night=ID, or "all"); the choice stays in the address, so a link or a reload keeps it.
const NIGHT = "night";
const chosenNight = () => new URLSearchParams(location.search).get(NIGHT) || "current";
const withNight = (url) => `${url}${url.includes("?") ? "&" : "?"}${NIGHT}=${encodeURIComponent(chosenNight())}`;
// The date a night started, unless its name already is that date (a night the director
// did not name is named by its day, and "2026-11-23 23/11/2026" says it twice).
const nightDate = (n) => {
  if (!n.started) return "";
  const d = new Date(n.started * 1000);
  const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  return n.name === day ? "" : d.toLocaleDateString();
};

function nightPicker(club, redraw) {
  const select = $('[data-role="night-picker"]');
  if (!select) return;
  const want = chosenNight() === "current" ? String(club.night) : chosenNight();
  const options = [...club.nights].reverse().map((n) => new Option(
    `${n.name}${n.id === club.night ? " (tonight)" : ""} ${nightDate(n)}`.trim(), String(n.id)));
  options.push(new Option("All nights", "all"));
  const key = options.map((o) => `${o.value}:${o.text}`).join("|");
  if (select.dataset.key !== key) {  // rebuilt only when the nights change: a choice in progress stays
    select.replaceChildren(...options);
    select.dataset.key = key;
  }
  select.value = want;
  if (!select.dataset.bound) {
    select.dataset.bound = "1";
    select.addEventListener("change", () => {
      const params = new URLSearchParams(location.search);
      if (select.value === String(club.night)) params.delete(NIGHT); else params.set(NIGHT, select.value);
      const query = params.toString();
      history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}`);
      redraw();
    });
  }
  $$('a[data-night-link]').forEach((a) => { a.href = withNight(a.dataset.nightLink); });
}

async function grid() {
  const [club, tables, st, people] = await Promise.all([get("/api/club"), get("/api/tables"),
    get(withNight("/api/standings")), get(withNight("/api/players"))]);
  $('[data-role="club-name"]').textContent = club.name;
  nightPicker(club, tick);
  $('[data-role="conn"]').className = club.connected ? "conn up" : "conn down";
  $('[data-role="conn"]').textContent = club.connected ? "live" : "broker offline";
  $('[data-role="tables"]').replaceChildren(...tables.map(tile));
  $('[data-role="standings"]').replaceChildren(...st.standings.map((r, i) => el("tr", {},
    el("td", {}, i + 1), el("td", {}, r.team), el("td", { class: "num" }, r.played), el("td", { class: "num" }, r.won),
    el("td", { class: "num" }, r.courts), el("td", { class: "num" }, r.points))));
  $('[data-role="counted"]').textContent = st.counted === "rounds"
    ? "registered teams, the rounds' results only" : "every finished match of the night";
  const rounds = st.tournament ? st.tournament.rounds : [];
  const outcome = (r) => (!r ? "to play" : r.winner === null ? `drawn ${r.courts.join("–")}`
    : `${r.winner} won ${r.courts.join("–")}`);
  $('[data-role="rounds"]').replaceChildren(...rounds.map((r) => el("p", { "data-round": r.number }, `Round ${r.number}: `,
    r.tables.map((t) => `${t.table}: ${t.teams.join(" v ")} (${outcome(t.result)})`).join("; "))));
  // players by id: two of one name are two lines, told apart by where they sat
  const named = {};
  for (const p of people) named[p.name] = (named[p.name] || 0) + 1;
  $('[data-role="players"]').replaceChildren(...people.map((p) => el("li", { "data-player": p.id },
    el("a", { href: withNight(`/player/${encodeURIComponent(p.id)}`) }, p.name),
    named[p.name] > 1 ? el("span", { class: "muted" }, ` (${p.id.includes(":") ? `table ${p.id.split(":")[0]}` : p.id})`) : "")));
}

async function player() {
  const id = decodeURIComponent(location.pathname.slice("/player/".length));
  const [club, p] = await Promise.all([get("/api/club"), get(withNight(`/api/players/${encodeURIComponent(id)}`))]);
  nightPicker(club, tick);
  $('[data-role="player-name"]').textContent = p.stats.name;
  $('[data-role="player-id"]').textContent = p.stats.id;
  const rows = [["Matches", `${p.stats.matches_won} won of ${p.stats.matches} finished`], ["Hands", `${p.stats.hands_won} won of ${p.stats.hands}`],
    ["Courts", Object.entries(p.stats.courts).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(", ") || "0"],
    ["Revokes flagged", p.stats.revokes], ["Trump calls", `${p.stats.trump_calls_won} won of ${p.stats.trump_calls}`],
    ["Bids (band rung)", `${p.stats.bids_made} made, ${p.stats.bids_broken} broken`]];
  $('[data-role="stats"]').replaceChildren(...rows.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, v))));
  $('[data-role="matches"]').replaceChildren(...p.matches.map((m) => el("tr", {}, el("td", {}, m.table),
    el("td", {}, m.teams.map((x) => x.join(" & ")).join(" v ")), el("td", { class: "num" }, m.courts.join("–")), el("td", {}, result(m)))));
}

async function admin() {
  // The forms answer from the moment the page is up: a director who clicks before the
  // session has come back waits for it instead of sending the form as a plain GET.
  let csrf = null;
  const session = get("/admin/api/session").then((s) => { csrf = s.csrf; show(s.admin); });
  const msg = $('[data-role="msg"]');
  const post = async (url, body) => {
    await session;
    const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(body) });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.detail || r.statusText);
    return data;
  };
  const show = (admin) => { $('[data-role="login"]').hidden = admin; $('[data-role="tools"]').hidden = !admin; };
  const on = (role, fn) => $(`[data-role="${role}"]`).addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = Object.fromEntries(new FormData(ev.target));
    try { msg.className = "ok"; msg.textContent = await fn(data); } catch (e) { msg.className = "err"; msg.textContent = e.message; }
  });
  // each answer in words a director reads at a glance (the JSON stays the API's)
  on("login", async (d) => { const r = await post("/admin/api/login", d); csrf = r.csrf; show(true); return "Signed in."; });
  on("night", async (d) => `Night ${(await post("/admin/api/night", d)).night} started.`);
  on("team", async (d) => {
    const r = await post("/admin/api/teams", d);
    return `Team ${r.team} registered${r.ids.length ? ` (club ids ${r.ids.join(", ")})` : ""}.`;
  });
  on("round", async (d) => {
    const r = await post("/admin/api/round", d);
    return `Seated: ${r.round.map(([t, a, b]) => `${t}: ${a} v ${b}`).join("; ")}.`;
  });
  on("afresh", async (d) => {
    const r = await post("/admin/api/afresh", d);
    return r.archived_as ? `${d.table} taken afresh; what it sent before is kept as ${r.archived_as}.`
      : `${d.table} taken back to input ${r.taken_back_to}; what its journal never reached is gone.`;
  });
}

// a table's page is the table screen itself (club-table.js)
const pages = { grid, player };
function tick() { if (pages[page]) pages[page]().catch(() => {}); }
if (page === "admin") admin();
else if (pages[page]) {
  tick();
  setInterval(tick, 2000);
}
