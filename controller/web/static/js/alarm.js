// The table screen's revoke alarm: three short beeps from an oscillator (Web Audio: no
// sound files), started as a revoke event arrives and its row flashes up. The buzzer and
// the voice may be far from the screen; this sound comes from the screen players look at.
// Muted per screen: the bar's ♪ button, or ?sound=off in the kiosk's address (kept).
// Browsers start audio only after a click, unless launched with
// --autoplay-policy=no-user-gesture-required (the kiosk unit does: docs/web.md).
const KEY = "courtpiece.sound";
let ctx = null;

// ?sound=off (or on) in the address: taken once, when the page opens, and kept
const asked = new URLSearchParams(location.search).get("sound");
if (asked === "on" || asked === "off") localStorage.setItem(KEY, asked);

export function soundOn() { return localStorage.getItem(KEY) !== "off"; }

export function setSound(on) { localStorage.setItem(KEY, on ? "on" : "off"); }

// Three beeps, high-low-high; false when muted or the browser has no Web Audio.
export function revokeAlarm() {
  if (!soundOn()) return false;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return false;
  ctx = ctx || new Ctx();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  const t0 = ctx.currentTime + 0.02;
  for (let i = 0; i < 3; i++) {
    const at = t0 + i * 0.3;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "square";
    osc.frequency.value = i === 1 ? 660 : 880;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.22);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + 0.25);
  }
  return true;
}
