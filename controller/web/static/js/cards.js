// Card faces big enough to read across a table: the rank and the suit in the middle
// (what a player looks for from three metres) and the usual corner index. A card the
// public may not see is drawn as its back: never pass a hidden card's text here.
import { el } from "./render.js";
import { t } from "./i18n.js";

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function rankText(card) { return card[0] === "T" ? "10" : card[0]; }

export function cardFace(text, { faceDown = false, extra = "" } = {}) {
  if (faceDown || !text) {
    return el("div", { class: `face back ${extra}`.trim(), "data-card": "back", title: t("card.facedown") });
  }
  const suit = text[1];
  const pip = SUITS[suit] || suit;
  const rank = rankText(text);
  return el("div", { class: `face suit-${suit} ${extra}`.trim(), "data-card": text, "aria-label": `${rank}${pip}` },
    el("span", { class: "corner tl" }, rank, el("br"), pip),
    el("span", { class: "mid" }, el("span", { class: "rank" }, rank), el("span", { class: "pip" }, pip)),
    el("span", { class: "corner br" }, rank, el("br"), pip));
}

// The trump as a badge: the suit's symbol in its colour; a hidden trump is a face-down
// card (its suit is never in the public view, so there is nothing else to draw).
export function trumpBadge(v) {
  if (v.trump) {
    return [el("span", { class: "tb-label", text: t("trump") }),
      el("span", { class: `tb-suit suit-${v.trump}`, "data-trump": v.trump, text: SUITS[v.trump] }),
      el("span", { class: "tb-name", text: t(`suit.${v.trump}`) })];
  }
  if (v.trump_hidden) {
    return [el("span", { class: "tb-label", text: t("trump") }), cardFace(null, { extra: "tb-back" }),
      el("span", { class: "tb-name", text: t("trump.hidden") })];
  }
  return [el("span", { class: "tb-label", text: t("trump") }), el("span", { class: "tb-suit none", text: "?" }),
    el("span", { class: "tb-name", text: t("trump.none") })];
}
