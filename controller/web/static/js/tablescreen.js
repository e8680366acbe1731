// The table screen's own drawing, on top of the shared renderer (render.js): card faces
// at each seat's spot, the trump badge, whose turn, progress in the hand and the match,
// and one message row (revoke, play on, showing, dealing, the auction, the last hand,
// offline) that sits between the felt and the facts, so it never covers either.
// Everything comes from the public view and the public events: nothing here can know
// a hidden card.
import { t, tOr } from "./i18n.js";
import { cardNode, el, handReason, render, revokeShown, seatName, suitText, teamName, teamShort } from "./render.js";
import { SUITS, cardFace, trumpBadge } from "./cards.js";

function $(root, role) { return root.querySelectorAll(`[data-role="${role}"]`); }
function fill(root, role, ...kids) { $(root, role).forEach((e) => e.replaceChildren(...kids.map((k) => (typeof k === "string" ? k : k.cloneNode(true))))); }

// The events of the hand in progress, from the recent public events (the server sends
// the last thirty with every snapshot, so a screen that reconnects has them too).
function thisHand(store) {
  const out = [];
  for (const e of [...(store.recent || [])].reverse()) {
    if (e.event === "hand-started" || e.event === "match-setup") break;
    out.unshift(e);
  }
  return out;
}

// The trick just taken: from its trick-won event, while the next one has not begun.
export function lastTrick(store) {
  const v = store.state.view;
  const won = [...(store.recent || [])].reverse().find((e) => e.event === "trick-won");
  if (!won || won.trick !== v.trick.number - 1 || v.phase === "over") return null;
  if (!thisHand(store).includes(won)) return null;
  return won;
}

// Tricks a team needs this hand: seven, the bid (or what breaks it) in band rung, all
// thirteen when playing on.
export function tricksNeeded(v, team) {
  if (v.playing_on && v.play_on_team === null) return team === (v.tricks[0] >= v.tricks[1] ? 0 : 1) ? 13 : 0;
  if (v.score_kind === "net" && v.bid && v.caller !== null) return team === v.caller % 2 ? v.bid : 14 - v.bid;
  return 7;
}

function renderMarks(root, v) {
  for (const team of [0, 1]) {
    const need = tricksNeeded(v, team);
    const got = v.tricks[team];
    $(root, `trickmarks-${team}`).forEach((box) => {
      box.replaceChildren();
      if (!need) return;
      for (let i = 0; i < Math.max(need, got); i++) box.append(el("span", { class: `tmark${i < got ? " on" : ""}` }));
    });
    $(root, `need-${team}`).forEach((e) => { e.textContent = need ? ` / ${need}` : ""; });
  }
}

function grossPoints(v) {
  const g = [0, 0];
  for (const h of v.history || []) for (const s of h.scored || []) g[s.team] += s.points ?? s.courts ?? 0;
  return g;
}

function renderScores(root, v) {
  const target = v.match_end.kind === "points" && v.match_end.target ? `/${v.match_end.target}` : "";
  $(root, "score-of").forEach((e) => { e.textContent = target; });
  const gross = v.score_kind === "net" ? grossPoints(v) : null;
  for (const team of [0, 1]) {
    // Band rung shows one net figure: a side on 0 that has scored says so, and why.
    const note = gross && (gross[0] || gross[1]) ? t("net.note", { gross: gross[team], other: gross[1 - team] }) : "";
    $(root, `scorenote-${team}`).forEach((e) => { e.textContent = note; });
  }
}

function renderSeats(root, store) {
  const state = store.state;
  const v = state.view;
  const taken = v.trick.cards.length === 0 && ["play", "play-on", "show"].includes(v.phase) ? lastTrick(store) : null;
  const played = {};
  for (const c of v.trick.cards) played[c.seat] = c;
  const bids = auctionBids(store);
  const a = v.auction;
  const bidding = a && !a.done ? a.turn : null;
  const flag = revokeShown(store);
  for (let s = 0; s < 4; s++) {
    root.querySelectorAll(`.felt [data-seat="${s}"]`).forEach((box) => {
      box.classList.toggle("bidding", bidding === s);
      box.classList.toggle("revoker", !!flag && flag.seat === s);
      box.classList.toggle("winner", !!taken && taken.winner === s);
      // On the felt the badges are chips (D, T) with the full word as their title: the
      // name must keep the room, and the facts row names the dealer and caller in full.
      box.querySelectorAll(".badge").forEach((b) => {
        const kind = b.classList.contains("dealer") ? "dealer" : "caller";
        b.title = b.textContent;
        b.textContent = t(`${kind}.chip`);
      });
      const st = box.querySelector(".seat-tricks");
      if (st) st.textContent = v.phase === "play" || v.tricks_by_seat[s] ? String(v.tricks_by_seat[s]) : "";
      if (st) st.title = t("tricks");
      const slot = box.querySelector(".slot");
      if (!slot) return;
      const c = played[s];
      if (c) slot.replaceChildren(cardFace(c.card, { faceDown: c.face_down && !c.card }));
      else if (taken) {
        const tc = taken.cards.find(([seat]) => seat === s);
        slot.replaceChildren(tc ? cardFace(tc[1], { faceDown: !tc[1], extra: "gone" }) : "");
      } else if (a && !a.done && bids[s]) slot.replaceChildren(el("span", { class: `bidchip ${bids[s].kind}`, text: bids[s].text }));
      else slot.replaceChildren();
    });
  }
  $(root, "taken").forEach((e) => { e.textContent = taken ? t("taken.by", { name: seatName(state, taken.winner), n: taken.trick }) : ""; });
  if (taken) $(root, "trick-no").forEach((e) => { e.textContent = ""; }); // "took trick 3" says it
}

// Each seat's last word in this hand's auction.
function auctionBids(store) {
  const out = {};
  for (const e of thisHand(store)) {
    if (e.event === "bid-made") out[e.seat] = { kind: "bid", text: String(e.tricks) };
    else if (e.event === "bid-passed") out[e.seat] = { kind: "pass", text: t("auction.pass") };
  }
  return out;
}

function message(kind, ...kids) { return el("div", { class: `msg ${kind}`, "data-msg": kind, "data-role": kind }, ...kids); }

function revokeMessage(store) {
  const f = revokeShown(store);
  if (!f) return null;
  const state = store.state;
  const parts = [el("strong", { class: "flash-word", text: t("revoke.title") }),
    el("span", { text: t("revoke.banner.nocard", { name: seatName(state, f.seat) }) })];
  if (f.card) parts.push(el("span", { text: t("revoke.played") }), cardNode(f.card));
  if (f.rule) parts.push(el("span", { class: "rule", text: tOr("rule", f.rule) }));
  if (f.suit) parts.push(el("span", { class: "suit", text: t("revoke.suit", { suit: suitText(f.suit) }) }));
  if (f.proof) parts.push(el("span", { text: t("revoke.proof", { proof: "" }) }), cardNode(f.proof));
  if (f.pending) parts.push(el("span", { class: "pending", text: t("revoke.pending") }));
  const m = message("revoke", ...parts);
  m.id = "revoke";
  m.dataset.seat = String(f.seat);
  m.setAttribute("role", "alert");
  return m;
}

function auctionMessage(store) {
  const v = store.state.view;
  const a = v.auction;
  if (!a || a.done) return null;
  const bids = auctionBids(store);
  const state = store.state;
  const first = (v.dealer + 1) & 3;
  const rows = [0, 1, 2, 3].map((i) => (first + i) & 3).map((s) => el("span", { class: `bidcell${a.turn === s ? " now" : ""}`, "data-bid-seat": String(s) },
    el("span", { class: "who", text: seatName(state, s) }),
    el("b", { text: bids[s] ? bids[s].text : (a.turn === s ? "…" : "–") })));
  const head = [a.turn !== null ? t("auction.turn", { name: seatName(state, a.turn) }) : "",
    a.high ? t("auction.high", { bid: a.high, name: seatName(state, a.high_seat) }) : ""].filter(Boolean).join(" · ");
  return message("auction", el("span", { class: "label", text: t("auction") }), el("span", { class: "bidtable" }, ...rows),
    el("span", { class: "auction-text", text: head }));
}

function handOverMessage(store) {
  const v = store.state.view;
  const h = v.last_hand;
  if (!h || h.hand !== v.hand - 1 || v.trick.number !== 1 || v.trick.cards.length || v.phase === "over") return null;
  return message("handover", el("span", { text: handResult(store.state, h) }));
}

// "Hand 3: Team 1 won 13–0 · goon court: dealer's team took all 13 (+2)". The reason is
// the scoring's own when it has one: a 13–0 hand is never called "seven tricks".
export function handResult(state, h) {
  const scored = (h.scored || []).filter((e) => e.team === h.winner || h.winner === null);
  const reason = handReason(h);
  const gains = scored.map((e) => `${teamShort(e.team)} +${e.courts ?? e.points ?? 0} (${tOr("reason", e.reason)})`);
  return t("handover", { hand: h.hand, team: teamName(state, h.winner), t0: h.tricks[0], t1: h.tricks[1], reason })
    + (gains.length ? ` · ${gains.join(" · ")}` : "");
}

// Cards still coming over the deal spot (dealt mode), before or after the trump call.
// (Not while the auction runs: the rest of the deck waits for the bids.)
function dealing(v) {
  return typeof v.cards_dealt === "number" && v.cards_dealt < 52 && v.phase !== "over" && !(v.auction && !v.auction.done);
}

// How long a reader's fault stays among the table's messages (a camera that stays away
// says so again every minute).
const READER_FAULT_FOR = 20000;

function messages(store, ui) {
  const state = store.state;
  const v = state.view;
  const out = [];
  if (ui.offline) out.push(message("offline", el("strong", { text: t("offline.title") }), el("span", { text: t("offline.body") })));
  const rv = revokeMessage(store);
  if (rv) out.push(rv);
  // a reader in trouble (the camera unplugged, the hub gone): the table's plays go unseen
  const n = store.notice;
  if (n && n.event === "reader-fault" && Date.now() - n.at < READER_FAULT_FOR) {
    out.push(message("reader-fault", el("strong", { text: t("notice") }), el("span", { text: n.text || "" })));
  }
  if (v.play_on_team !== null && v.play_on_team !== undefined) out.push(message("playon", el("span", { text: t("playon.offer", { team: teamShort(v.play_on_team) }) })));
  else if (v.playing_on && v.phase === "play") out.push(message("playingon", el("span", { text: t("playon.going", { team: teamShort(v.tricks[0] >= v.tricks[1] ? 0 : 1) }) })));
  const asked = v.showing || [];
  if (asked.length) {
    out.push(message("showing", el("strong", { text: t("phase.show") }), el("span", { text: asked.map((s) => t("show.ask", {
      name: seatName(state, s.seat), suits: s.suits.map(suitText).join(", "), tricks: s.tricks.join(", "),
    })).join(" · ") })));
  }
  if (dealing(v)) {
    out.push(message("dealing", el("span", { text: t("dealing", { n: v.cards_dealt }) }),
      el("progress", { class: "dealbar", max: "52", value: String(v.cards_dealt) })));
  }
  const au = auctionMessage(store);
  if (au) out.push(au);
  const ho = handOverMessage(store);
  if (ho) out.push(ho);
  if (ui.recall && !rv) {
    const won = [...(store.recent || [])].reverse().find((e) => e.event === "trick-won");
    if (won) {
      out.push(message("recall", el("span", { text: t("lasttrick", { n: won.trick, name: seatName(state, won.winner) }) }),
        ...won.cards.map(([seat, card]) => el("span", { class: "recalled" }, el("span", { class: "who", text: seatName(state, seat) }), cardNode(card, !card)))));
    }
  }
  return out;
}

function renderStrip(root, store) {
  const state = store.state;
  const hist = (state.view.history || []).slice(-8).reverse(); // newest first: a narrow screen clips the oldest
  $(root, "strip").forEach((box) => {
    box.replaceChildren(...hist.map((h) => el("span", { class: `chip team${h.winner}`, "data-hand": String(h.hand), title: handResult(state, h) },
      el("span", { class: "no", text: `#${h.hand}` }),
      el("span", { class: h.trump ? `suit-${h.trump}` : "muted", text: h.trump ? SUITS[h.trump] : "–" }),
      el("span", { text: `${h.tricks[0]}–${h.tricks[1]}` }),
      el("b", { text: (h.scored || []).map((e) => `+${e.courts ?? e.points ?? 0}`).join(" ") || teamShort(h.winner) }))));
    box.hidden = hist.length === 0;
  });
}

function renderOver(root, store) {
  const state = store.state;
  const v = state.view;
  const over = v.match_over;
  root.querySelectorAll(".ts-grid").forEach((g) => g.classList.toggle("is-over", !!over));
  if (!over) return;
  const hist = v.history || [];
  const won = [0, 0];
  let thirteen = 0;
  for (const h of hist) {
    if (h.winner === 0 || h.winner === 1) won[h.winner] += 1;
    if (h.tricks[0] === 13 || h.tricks[1] === 13) thirteen += 1;
  }
  fill(root, "over-score", `${v.score[0]} – ${v.score[1]} ${t(`score.${v.score_kind}`)}`);
  const figures = [t("over.hands", { n: hist.length }), t("over.won", { a: teamShort(0), n0: won[0], b: teamShort(1), n1: won[1] }),
    t("over.thirteen", { n: thirteen }), over.reason ? tOr("reason", over.reason) : ""].filter((f, i, all) => f && all.indexOf(f) === i);
  $(root, "over-figures").forEach((ul) => ul.replaceChildren(...figures.map((f) => el("li", { text: f }))));
}

export function renderTable(root, store, ui) {
  render(root, store);
  const v = store.state?.view;
  document.body.classList.toggle("offline", !!ui.offline);
  if (!v) return;
  renderScores(root, v);
  renderMarks(root, v);
  renderSeats(root, store);
  $(root, "trump-badge").forEach((b) => { b.replaceChildren(...trumpBadge(v)); b.dataset.state = v.trump ? "shown" : (v.trump_hidden ? "hidden" : "none"); });
  $(root, "trick-no").forEach((e) => { if (v.phase !== "play") e.textContent = ""; });
  $(root, "pile").forEach((e) => { e.textContent = v.pile ? t("pile.short", { n: v.pile }) : ""; });
  // the phase as the table lives it: bidding while the auction runs, dealing while
  // cards still come after the call (the engine calls both "call")
  const phase = v.auction && !v.auction.done ? t("auction") : (dealing(v) && (v.trump || v.trump_hidden || v.phase === "deal") ? t("phase.deal") : null);
  if (phase) $(root, "phase").forEach((e) => { e.textContent = phase; });
  if (v.auction && !v.auction.done && v.auction.turn !== null) {
    $(root, "turn").forEach((e) => { e.textContent = t("auction.turn", { name: seatName(store.state, v.auction.turn) }); });
  }
  $(root, "played").forEach((e) => { e.textContent = v.match_end.kind === "hands" && v.match_end.target ? t("played.of", { n: (v.history || []).length, target: v.match_end.target }) : String((v.history || []).length); });
  $(root, "streakbox").forEach((e) => { e.hidden = !v.streak.target; });
  renderStrip(root, store);
  renderOver(root, store);
  const msgs = messages(store, ui);
  $(root, "messages").forEach((box) => { box.replaceChildren(...msgs); box.hidden = msgs.length === 0; });
}
