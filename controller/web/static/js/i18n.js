// All visible words come from /static/i18n/<lang>.json; this file only looks them up.
// A translator adds a language by adding one JSON file (the server lists them).
let dict = {};
let fallback = {};
let listeners = [];

export function t(key, vars = {}) {
  let s = dict[key] ?? fallback[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

// Engine words (reasons, rules) that may or may not have a translation.
export function tOr(prefix, text) {
  const key = `${prefix}.${text}`;
  return (dict[key] ?? fallback[key] ?? text);
}

export function apply(root = document) {
  root.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
  root.querySelectorAll("[data-i18n-title]").forEach((el) => { el.title = t(el.dataset.i18nTitle); });
}

// A busy server (a flood on the club's Wi-Fi) may answer 503 or drop a request: try
// again a few times, waiting longer each time, rather than leave the page without its
// words and its live connection until someone reloads it.
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function fetchPatiently(url, tries = 6) {
  let wait = 250;
  for (let i = 1; ; i++) {
    try {
      const r = await fetch(url);
      if (r.ok || (r.status < 500 && r.status !== 429) || i >= tries) return r;
    } catch (err) {
      if (i >= tries) throw err;
    }
    await sleep(wait);
    wait = Math.min(wait * 2, 4000);
  }
}

async function load(code) {
  const r = await fetchPatiently(`/static/i18n/${encodeURIComponent(code)}.json`);
  if (!r.ok) throw new Error(`no language ${code}`);
  return r.json();
}

async function languages() {
  try {
    const r = await fetchPatiently("/api/languages");
    if (r.ok) return await r.json();
  } catch { /* the server is busy: English alone, the list comes with the next load */ }
  return [{ code: "en", name: "English" }];
}

export async function setLanguage(code) {
  try { dict = await load(code); } catch { dict = fallback; code = "en"; }
  const meta = dict._meta || {};
  document.documentElement.lang = code;
  document.documentElement.dir = meta.dir || "ltr";
  localStorage.setItem("cp-lang", code);
  apply();
  listeners.forEach((fn) => fn(code));
}

export function onLanguage(fn) { listeners.push(fn); }

// Fills a <select> with the languages the server has, and switches on change.
export async function initI18n(select) {
  try { fallback = await load("en"); } catch { fallback = {}; }
  const langs = await languages();
  const wanted = new URLSearchParams(location.search).get("lang") || localStorage.getItem("cp-lang") || "en";
  if (select) {
    select.replaceChildren(...langs.map((l) => new Option(l.name, l.code)));
    select.value = langs.some((l) => l.code === wanted) ? wanted : "en";
    select.addEventListener("change", () => setLanguage(select.value));
  }
  await setLanguage(langs.some((l) => l.code === wanted) ? wanted : "en");
}
