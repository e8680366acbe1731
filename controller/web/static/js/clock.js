// Time left in a match played to a time. The server sends the seconds left with every
// state (controller/referee/match_clock.py); a screen counts down from the moment that
// state arrived, so a kiosk or phone with a wrong clock still shows the table's time.
import { t } from "./i18n.js";

const arrived = new WeakMap(); // clock object -> performance.now() when first seen

export function secondsLeft(state) {
  const c = state?.clock;
  if (!c) return null;
  if (c.time_up) return 0;
  if (!arrived.has(c)) arrived.set(c, performance.now());
  return Math.max(0, c.left - (performance.now() - arrived.get(c)) / 1000);
}

export function mmss(seconds) {
  const s = Math.ceil(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// "Time left 29:58", "Time up", or "" (not a timed match, or the match is over).
export function clockText(state) {
  const left = secondsLeft(state);
  if (left === null || state.view?.match_over) return "";
  return state.clock.time_up || left <= 0 ? t("clock.up") : t("clock.left", { left: mmss(left) });
}

// Every [data-role="clock"] in root; pages call this every second between states.
export function tickClock(root, state) {
  const text = clockText(state);
  const left = secondsLeft(state);
  root.querySelectorAll('[data-role="clock"]').forEach((e) => {
    e.textContent = text;
    e.hidden = !text;
    e.classList.toggle("low", left !== null && left < 300);
  });
}
