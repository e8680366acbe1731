// Camera zones: draw a box per play spot on a camera frame (or an uploaded photo) and
// save them where the referee's camera reader loads them. Boxes are kept in frame
// pixels; the canvas is drawn at frame size and scaled by CSS, so a pointer position is
// converted with the canvas's on-screen rectangle. Pointer events: mouse and touch alike.
import { initI18n, onLanguage, t } from "./i18n.js";

const COLOURS = { seat0: "#60a5fa", seat1: "#fbbf24", seat2: "#34d399", seat3: "#f472b6", deal: "#f87171", trump: "#c084fc" };
const canvas = document.querySelector("#frame");
const ctx = canvas.getContext("2d");
const status = document.querySelector("#status");
const say = (text, ok = true) => { status.textContent = text; status.className = ok ? "ok" : "err"; };

let csrf = "";
let info = { names: [], required: [], min_side: 20, applies: "restart" };
let boxes = {};        // name -> [x, y, w, h] in frame pixels
let boxesIn = null;    // [w, h] of the frame those pixels are of (null: this one's)
let selected = "";
let image = null;      // the frame being drawn on
let drag = null;       // {x0, y0, x1, y1} while a pointer is down

const size = () => (image ? [image.naturalWidth, image.naturalHeight] : [canvas.width, canvas.height]);

function clampBox([x, y, w, h]) {
  const [W, H] = size();
  const x0 = Math.max(0, Math.min(W, x)), y0 = Math.max(0, Math.min(H, y));
  const x1 = Math.max(0, Math.min(W, x + w)), y1 = Math.max(0, Math.min(H, y + h));
  return [x0, y0, x1 - x0, y1 - y0];
}

function draw() {
  const [W, H] = size();
  ctx.clearRect(0, 0, W, H);
  if (image) ctx.drawImage(image, 0, 0);
  const line = Math.max(2, Math.round(W / 400));
  ctx.font = `${Math.max(14, Math.round(W / 45))}px system-ui, sans-serif`;
  ctx.textBaseline = "top";
  for (const [name, [x, y, w, h]] of Object.entries(boxes)) {
    ctx.lineWidth = name === selected ? line * 2 : line;
    ctx.strokeStyle = COLOURS[name] || "#fff";
    ctx.fillStyle = ctx.strokeStyle;
    ctx.strokeRect(x, y, w, h);
    ctx.fillText(name, x + line * 2, y + line * 2);
  }
  if (drag) {
    ctx.lineWidth = line;
    ctx.setLineDash([line * 4, line * 3]);
    ctx.strokeStyle = COLOURS[selected] || "#fff";
    ctx.strokeRect(Math.min(drag.x0, drag.x1), Math.min(drag.y0, drag.y1), Math.abs(drag.x1 - drag.x0), Math.abs(drag.y1 - drag.y0));
    ctx.setLineDash([]);
  }
}

function zoneList() {
  const list = document.querySelector("#zones");
  list.replaceChildren(...info.names.map((name) => {
    const label = document.createElement("label");
    label.style.setProperty("--zone", COLOURS[name] || "#888");
    const input = Object.assign(document.createElement("input"), { type: "radio", name: "zone", value: name, checked: name === selected });
    input.addEventListener("change", () => { selected = name; draw(); });
    const state = document.createElement("span");
    state.className = "state";
    const required = info.required.includes(name);
    state.textContent = boxes[name] ? " ✓" : (required ? ` — ${t("calib.missing")}` : ` — ${t("calib.optional")}`);
    label.className = boxes[name] ? "set" : (required ? "missing" : "");
    label.dataset.zone = name;
    label.append(input, name, state);
    return label;
  }));
}

function framePoint(e) {
  const r = canvas.getBoundingClientRect();
  const [W, H] = size();
  const x = ((e.clientX - r.left) * W) / r.width, y = ((e.clientY - r.top) * H) / r.height;
  return [Math.max(0, Math.min(W, x)), Math.max(0, Math.min(H, y))];
}

canvas.addEventListener("pointerdown", (e) => {
  if (!selected || !image) return;
  e.preventDefault();
  canvas.setPointerCapture(e.pointerId);
  const [x, y] = framePoint(e);
  drag = { x0: x, y0: y, x1: x, y1: y };
  draw();
});
canvas.addEventListener("pointermove", (e) => {
  if (!drag) return;
  [drag.x1, drag.y1] = framePoint(e);
  draw();
});
function endDrag(e, keep) {
  if (!drag) return;
  if (keep) [drag.x1, drag.y1] = framePoint(e);
  const box = [Math.min(drag.x0, drag.x1), Math.min(drag.y0, drag.y1), Math.abs(drag.x1 - drag.x0), Math.abs(drag.y1 - drag.y0)]
    .map((v) => Math.round(v));
  drag = null;
  if (keep && box[2] >= info.min_side && box[3] >= info.min_side) {
    boxes[selected] = box;
    say(t("calib.marked", { zone: selected }));
    const next = info.names.find((n) => !boxes[n] && info.required.includes(n));
    if (next) selected = next;
    zoneList();
  } else if (keep) say(t("calib.toosmall"), false);
  draw();
}
canvas.addEventListener("pointerup", (e) => endDrag(e, true));
canvas.addEventListener("pointercancel", (e) => endDrag(e, false));

async function loadFrame(source = "auto") {
  // The image is loaded straight from the server (the CSP allows no blob: images);
  // only when it fails is the same URL fetched again, to show the server's reason.
  const url = `/admin/api/calibrate/frame?source=${source}&t=${Date.now()}`;
  const img = new Image();
  const loaded = await new Promise((done) => { img.onload = () => done(true); img.onerror = () => done(false); img.src = url; });
  if (!loaded) {
    const r = await fetch(url, { credentials: "same-origin" });
    const data = await r.json().catch(() => ({}));
    say(r.status === 404 ? t("calib.noframe") : (data.detail || String(r.status)), false);
    return false;
  }
  image = img;
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const [W, H] = size();
  if (boxesIn && (boxesIn[0] !== W || boxesIn[1] !== H)) {
    // zones saved on a frame of another size (the camera set to more pixels, or a
    // photo from the camera's place): the same spots on this picture
    const [fw, fh] = boxesIn, sx = W / fw, sy = H / fh;
    for (const name of Object.keys(boxes)) {
      const [x, y, w, h] = boxes[name];
      boxes[name] = [x * sx, y * sy, w * sx, h * sy];
    }
    if (Object.keys(boxes).length && Math.abs(sx - sy) > 0.01 * Math.max(sx, sy)) {
      say(t("calib.othershape", { from: `${fw}×${fh}`, to: `${W}×${H}` }), false);
    }
  }
  boxesIn = [W, H];
  for (const name of Object.keys(boxes)) {
    boxes[name] = clampBox(boxes[name]);
    if (boxes[name][2] < info.min_side || boxes[name][3] < info.min_side) delete boxes[name];
  }
  zoneList();
  draw();
  document.body.dataset.ready = "1";
  return true;
}

async function loadZones() {
  const r = await fetch("/admin/api/calibrate/zones", { credentials: "same-origin" });
  if (!r.ok) return false;
  info = await r.json();
  boxes = { ...info.zones };
  boxesIn = info.frame_size;
  selected = info.names.find((n) => !boxes[n]) || info.names[0];
  document.querySelector("#applies").textContent = t(info.applies === "now" ? "calib.applies.now" : "calib.applies.restart");
  if (info.error) say(info.error, false);
  return true;
}

document.querySelector("#clear").addEventListener("click", () => { delete boxes[selected]; zoneList(); draw(); });
document.querySelector("#refresh").addEventListener("click", () => loadFrame("auto"));

document.querySelector("#upload").addEventListener("submit", async (e) => {
  e.preventDefault();
  const file = document.querySelector("#photo").files[0];
  if (!file) return;
  const form = new FormData();
  form.append("csrf", csrf);
  form.append("image", file);
  const r = await fetch("/admin/api/calibrate/frame", { method: "POST", body: form, headers: { "X-CSRF-Token": csrf }, credentials: "same-origin" });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) return say(data.detail || String(r.status), false);
  if (await loadFrame("upload")) say(t("calib.uploaded"));
});

document.querySelector("#save").addEventListener("click", async () => {
  if (!image) return say(t("calib.noframe"), false);
  const [W, H] = size();
  const r = await fetch("/admin/api/calibrate/zones", {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify({ zones: boxes, frame_size: [W, H], csrf }),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) return say(data.detail || String(r.status), false);
  boxes = { ...data.zones };
  boxesIn = data.frame_size;
  zoneList();
  draw();
  const saved = t(data.applied ? "calib.saved.now" : "calib.saved.restart");
  say(data.missing.length ? `${saved} ${t("calib.stillmissing", { zones: data.missing.join(", ") })}` : saved);
  document.body.dataset.saved = String(Number(document.body.dataset.saved || 0) + 1);
});

await initI18n(document.querySelector("#lang"));
const s = await (await fetch("/admin/api/session", { credentials: "same-origin" })).json();
csrf = s.csrf;
document.querySelector("#locked").hidden = s.admin;
document.querySelector("#panel").hidden = !s.admin;
if (s.admin && await loadZones()) {
  zoneList();
  await loadFrame("auto");
}
onLanguage(() => { if (info.names.length) { zoneList(); document.querySelector("#applies").textContent = t(info.applies === "now" ? "calib.applies.now" : "calib.applies.restart"); } });
