// The table screen's welcome card: the dashboard's address as a QR code (drawn by the
// server as SVG), shown at first start and when the organiser asks from the admin page.
// At first start the server also sends the new admin PIN, to this screen only (a
// loopback browser), until the first admin login. Polled: it is one small GET.
import { t } from "./i18n.js";

const tr = (key, english) => { const s = t(key); return s === key ? english : s; };
const POLL_MS = 5000;
let card = null;
let drawn = "";  // what the card shows now: redrawn only when it changes

function build() {
  card = document.createElement("aside");
  card.className = "welcome-card";
  card.setAttribute("aria-live", "polite");
  card.hidden = true;
  document.body.append(card);
}

function show(w) {
  const key = JSON.stringify([w.url, w.names, w.reachable, w.pin]);
  if (key === drawn && !card.hidden) return;
  drawn = key;
  const img = document.createElement("img");
  img.src = `${w.qr}?u=${encodeURIComponent(w.url)}`;
  img.alt = w.url;
  const title = document.createElement("p");
  title.className = "welcome-title";
  title.textContent = tr("welcome.title", "Scan for the live score on your phone");
  const url = document.createElement("p");
  url.className = "welcome-url";
  url.textContent = [w.url, ...w.names.filter((n) => n !== w.url)].join("  ·  ");
  const parts = [title, img, url];
  if (!w.reachable) {
    const warn = document.createElement("p");
    warn.className = "welcome-warn";
    warn.textContent = tr("welcome.unreachable", "Phones cannot reach this address: set [web] host = \"0.0.0.0\"");
    parts.push(warn);
  }
  if (w.pin) {
    const pin = document.createElement("p");
    pin.className = "welcome-pin";
    pin.textContent = `${tr("welcome.pin", "Admin PIN (shown once, until the first login)")}: ${w.pin}`;
    parts.push(pin);
  }
  card.replaceChildren(...parts);
  card.hidden = false;
}

async function poll() {
  try {
    const r = await fetch("/api/welcome", { cache: "no-store" });
    if (r.ok) {
      const w = await r.json();
      if (w.show) show(w); else card.hidden = true;
    }
  } catch { /* the connection badge already says the server is away */ }
}

build();
poll();
setInterval(poll, POLL_MS);
