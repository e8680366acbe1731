// One renderer for the table screen and the phone dashboard: each page lays out the
// same data-role elements its own way. Text goes in with textContent only (seat names
// are typed by people).
import { t, tOr } from "./i18n.js";
import { tickClock } from "./clock.js";
import { cardFace } from "./cards.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

function $(root, role) { return root.querySelectorAll(`[data-role="${role}"]`); }
function setText(root, role, text) { $(root, role).forEach((el) => { el.textContent = text; }); }
function show(root, role, on) { $(root, role).forEach((el) => { el.hidden = !on; }); }

export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  e.append(...kids.filter((k) => k !== null && k !== undefined));
  return e;
}

export function seatName(state, seat) {
  if (seat === null || seat === undefined) return "–";
  const n = state?.setup?.seats?.[seat];
  return n || t("seat", { n: seat });
}

export function teamName(state, team) {
  if (team === null || team === undefined) return "–";
  return `${t("team", { n: team + 1 })} (${t("team.of", { a: seatName(state, team), b: seatName(state, team + 2) })})`;
}

export function teamShort(team) { return team === null || team === undefined ? "–" : t("team", { n: team + 1 }); }

export function cardNode(text, faceDown = false) {
  if (faceDown || !text) return el("span", { class: "card back", "data-card": "back", title: t("card.facedown") }, "🂠");
  const rank = text[0] === "T" ? "10" : text[0];
  const suit = text[1];
  return el("span", { class: `card suit-${suit}`, "data-card": text }, rank, el("span", { class: "pip" }, SUITS[suit] || suit));
}

export function suitText(s) { return s ? `${SUITS[s] || ""} ${t(`suit.${s}`)}` : t("trump.none"); }

function limitText(v, state) {
  const m = v.match_end;
  if (m.kind === "time" && m.time_up) return t("limit.time_up");
  if (m.kind === "time") return state.clock ? t("limit.minutes", { n: state.clock.minutes }) : t("limit.time");
  if (!m.target) return t("limit.none");
  return t(`limit.${m.kind}`, { target: m.target });
}

// The flag to show: a pending ruling (until it is resolved), else a flag the rules
// settled at once, until play moves on.
// A proof is public only once its card is played or the hand is over; the admin page
// puts the proofs it may see in store.proofs ({hand, seat, trick, proof}).
export function revokeShown(store) {
  const v = store.state?.view;
  if (!v) return null;
  let f = store.flag;
  if (v.pending_revoke) {
    const p = v.pending_revoke;
    const flag = [...(v.revokes || [])].reverse().find((r) => r.seat === p.seat) || {};
    f = { ...flag, seat: p.seat, card: p.card ?? flag.card, rule: p.rule || flag.rule, pending: true };
  }
  if (f && !f.proof) {
    const known = (store.proofs || []).find((r) => r.hand === v.hand && r.seat === f.seat && r.trick === f.trick && r.proof);
    if (known) f = { ...f, proof: known.proof };
  }
  return f;
}

function renderTrick(root, state) {
  const v = state.view;
  const played = {};
  for (const c of v.trick.cards) played[c.seat] = c;
  // Seats go round the felt the way play goes round the real table.
  root.querySelectorAll(".felt").forEach((felt) => { felt.dataset.direction = v.direction || "counter-clockwise"; });
  for (let s = 0; s < 4; s++) {
    root.querySelectorAll(`[data-seat="${s}"]`).forEach((box) => {
      const name = box.querySelector(".name");
      if (name) name.textContent = seatName(state, s);
      const badges = box.querySelector(".badges");
      if (badges) {
        badges.replaceChildren();
        if (v.dealer === s) badges.append(el("span", { class: "badge dealer", text: t("dealer") }));
        if (v.caller === s) badges.append(el("span", { class: "badge caller", text: t("caller") }));
      }
      box.classList.toggle("turn", v.turn === s);
      box.classList.toggle("team0", s % 2 === 0);
      box.classList.toggle("team1", s % 2 === 1);
      const slot = box.querySelector(".slot");
      if (slot) {
        const c = played[s];
        // the same faces as the table screen (js/cards.js, css/cards.css); a hidden card is its back
        slot.replaceChildren(c ? cardFace(c.card, { faceDown: c.face_down && !c.card }) : "");
      }
    });
  }
}

function renderStreak(root, v, state) {
  const st = v.streak;
  $(root, "streak").forEach((box) => {
    box.replaceChildren();
    const target = st.target || 0;
    // No streak rule: the whole line goes, never "Hands in a row: no hand streak".
    const line = box.closest("section, [data-role='streakbox']");
    if (line) line.hidden = !target;
    if (!target) return;
    const marks = el("span", { class: "marks", "data-count": String(st.count), "data-team": String(st.team ?? "") });
    for (let i = 0; i < target; i++) {
      marks.append(el("span", { class: `mark${i < st.count ? ` on team${st.team}` : ""}` }));
    }
    box.append(marks, el("span", { class: "streak-label", text: st.team === null || st.team === undefined ? "" : t("streak.of", { team: teamShort(st.team), count: st.count, target }) }));
  });
}

// Why a hand was won, in the table's words: a 13–0 hand is "all thirteen tricks" even
// when the engine stopped counting at seven (play on), never "seven tricks".
export function handReason(h) {
  const allThirteen = h.tricks[0] === 13 || h.tricks[1] === 13;
  if (allThirteen && ["seven tricks", "more tricks", "first seven tricks"].includes(h.reason)) return tOr("reason", "all thirteen tricks");
  return tOr("reason", h.reason);
}

function lastText(state) {
  const h = state.view.last_hand;
  if (!h) return t("last.none");
  return t("last.result", { hand: h.hand, team: teamShort(h.winner), t0: h.tricks[0], t1: h.tricks[1], reason: handReason(h) });
}

function scoredText(h) {
  return (h.scored || []).map((e) => {
    const n = e.courts ?? e.points ?? 0;
    return `${teamShort(e.team)} +${n} (${tOr("reason", e.reason)})`;
  }).join("; ");
}

function renderHistory(root, state) {
  const rows = (state.view.history || []).slice().reverse();
  $(root, "history").forEach((tb) => {
    tb.replaceChildren(...rows.map((h) => el("tr", { "data-hand": String(h.hand) },
      el("td", { text: String(h.hand) }),
      el("td", { text: seatName(state, h.caller) + (h.bid ? ` (${h.bid})` : "") }),
      el("td", { text: h.trump ? SUITS[h.trump] : "–", class: h.trump ? `suit-${h.trump}` : "" }),
      el("td", { text: `${h.tricks[0]}–${h.tricks[1]}` }),
      el("td", { text: teamShort(h.winner) }),
      el("td", { text: scoredText(h) || handReason(h) }),
    )));
  });
  $(root, "sheet").forEach((tb) => {
    tb.replaceChildren(...(state.view.history || []).map((h) => el("tr", {},
      el("td", { text: String(h.hand) }), el("td", { text: String(h.score[0]) }), el("td", { text: String(h.score[1]) }))));
  });
  show(root, "history-none", rows.length === 0);
}

function renderRevoke(root, store) {
  const f = revokeShown(store);
  show(root, "revoke", !!f);
  if (!f) return;
  const state = store.state;
  setText(root, "revoke-who", f.card ? t("revoke.banner", { name: seatName(state, f.seat), card: "" }) : t("revoke.banner.nocard", { name: seatName(state, f.seat) }));
  $(root, "revoke-card").forEach((e) => e.replaceChildren(f.card ? cardNode(f.card) : ""));
  $(root, "revoke-proof").forEach((e) => e.replaceChildren(...(f.proof ? [t("revoke.proof", { proof: "" }), cardNode(f.proof)] : [])));
  // the suit he held and did not play: public; which card of it, only once it is (proof)
  setText(root, "revoke-suit", f.suit ? t("revoke.suit", { suit: suitText(f.suit) }) : "");
  setText(root, "revoke-rule", f.rule ? tOr("rule", f.rule) : "");
  setText(root, "revoke-detail", f.detail || "");
  setText(root, "revoke-pending", f.pending ? t("revoke.pending") : "");
  $(root, "revoke").forEach((e) => { e.dataset.seat = String(f.seat); });
}

export function render(root, store) {
  const state = store.state;
  const v = state?.view;
  show(root, "nomatch", !v);
  show(root, "match", !!v);
  if (!v) return;
  const kind = v.score_kind;
  for (const team of [0, 1]) {
    setText(root, `team-${team}`, teamName(state, team));
    setText(root, `score-${team}`, String(v.score[team]));
    setText(root, `tricks-${team}`, String(v.tricks[team]));
  }
  setText(root, "score-kind", t(`score.${kind}`));
  setText(root, "hand", t("hand.no", { n: v.hand }));
  setText(root, "phase", t(`phase.${v.phase}`));
  setText(root, "dealer", seatName(state, v.dealer));
  setText(root, "caller", v.caller === null ? "–" : seatName(state, v.caller) + (v.bid ? ` · ${t("bid")} ${v.bid}` : ""));
  setText(root, "trump", v.trump ? suitText(v.trump) : (v.trump_hidden ? t("trump.hidden") : t("trump.none")));
  $(root, "trump").forEach((e) => { e.className = v.trump ? `suit-${v.trump}` : "muted"; });
  setText(root, "turn", v.turn === null ? "–" : t("turn.of", { name: seatName(state, v.turn) }));
  setText(root, "trick-no", t("trick.no", { n: v.trick.number }));
  setText(root, "limit", limitText(v, state));
  tickClock(root, state);
  setText(root, "last", lastText(state));
  setText(root, "pile", v.pile ? t("pile", { n: v.pile }) : "");
  const a = v.auction;
  show(root, "auction", !!a && !a.done);
  if (a && !a.done) {
    setText(root, "auction-text", [a.turn !== null ? t("auction.turn", { name: seatName(state, a.turn) }) : "",
      a.high ? t("auction.high", { bid: a.high, name: seatName(state, a.high_seat) }) : ""].filter(Boolean).join(" · "));
  }
  show(root, "playon", v.play_on_team !== null && v.play_on_team !== undefined);
  setText(root, "playon-text", v.play_on_team === null ? "" : t("playon.offer", { team: teamShort(v.play_on_team) }));
  const asked = v.showing || [];
  show(root, "showing", asked.length > 0);
  setText(root, "showing-text", asked.map((s) => t("show.ask", {
    name: seatName(state, s.seat), suits: s.suits.map(suitText).join(", "), tricks: s.tricks.join(", "),
  })).join(" · "));
  renderTrick(root, state);
  renderStreak(root, v, state);
  renderHistory(root, state);
  renderRevoke(root, store);
  const over = v.match_over;
  show(root, "over", !!over);
  if (over) setText(root, "over-text", over.winner === null ? t("over.draw") : t("over.winner", { team: teamName(state, over.winner) }));
  const n = store.notice;
  // A halted referee or a journal rebuilt from a damaged file stays on screen: the state says so.
  const standing = state.halted || state.journal_damaged;
  show(root, "notice", !!standing || (!!n && Date.now() - n.at < 8000));
  if (standing) setText(root, "notice-text", standing);
  else if (n) setText(root, "notice-text", n.text || "");
}
