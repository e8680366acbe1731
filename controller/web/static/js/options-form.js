// The rules options as a typed form (GET /api/presets: each option's kind and choices):
// a checkbox, a number, a list to pick from, boxes to tick. Each field starts at the
// preset's value, and only the fields changed from it are sent, so a new match is the
// preset plus exactly what the table plays differently.

function field(o, value) {
  const id = `opt-${o.name}`;
  const wrap = document.createElement("label");
  wrap.className = `opt opt-${o.kind}`;
  wrap.title = o.help;
  const name = document.createElement("span");
  name.className = "opt-name";
  name.textContent = o.name;
  const help = document.createElement("small");
  help.className = "muted";
  help.textContent = o.help;
  let input;
  if (o.kind === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = !!value;
  } else if (o.kind === "int") {
    input = document.createElement("input");
    Object.assign(input, { type: "number", step: "1", min: "0", value: String(value) });
  } else if (o.kind === "choice") {
    input = document.createElement("select");
    input.append(...o.choices.map((c) => new Option(c, c)));
    input.value = value;
  } else if (o.kind === "choices") {
    input = document.createElement("span");
    input.className = "ticks";
    for (const c of o.choices) {
      const l = document.createElement("label");
      const box = document.createElement("input");
      Object.assign(box, { type: "checkbox", value: c, checked: value.includes(c) });
      l.append(box, ` ${c}`);
      input.append(l);
    }
  } else {
    input = document.createElement("input");
    input.value = Array.isArray(value) ? value.join(", ") : String(value);
  }
  input.id = id;
  input.dataset.option = o.name;
  wrap.append(name, input, help);
  return { wrap, read: () => readField(o, input) };
}

function readField(o, input) {
  if (o.kind === "bool") return input.checked;
  if (o.kind === "int") return Number(input.value);
  if (o.kind === "choice") return input.value;
  if (o.kind === "choices") return [...input.querySelectorAll("input:checked")].map((b) => b.value).sort();
  if (o.kind === "ints") return input.value.split(/[\s,]+/).filter(Boolean).map(Number);
  return input.value;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Draws every option into ``box``; returns { changed() } giving {name: value} for the
// fields that now differ from the preset's value.
export function optionsForm(box, schema, presetOptions) {
  const fields = schema.map((o) => {
    const start = o.name in presetOptions ? presetOptions[o.name] : o.default;
    return { o, start, ...field(o, start) };
  });
  box.replaceChildren(...fields.map((f) => f.wrap));
  return {
    changed() {
      const out = {};
      for (const f of fields) {
        const v = f.read();
        const start = Array.isArray(f.start) && f.o.kind === "choices" ? [...f.start].sort() : f.start;
        if (!same(v, start)) out[f.o.name] = v;
      }
      return out;
    },
  };
}
