// The lab beside the video: the lecture's demos on its own numbers (window.LECTURE.lab,
// written by pipeline/lab.py from the data file). Copied beside index.html by the page
// writer; TensorFlow.js (tf.min.js, from npm at set-up) trains the colour task here.
//
// LabMath is a second implementation of what model/ computed: tests/test_page.py feeds it
// the data file's numbers and checks its results against the data file's (to 1e-6).
"use strict";

const LabMath = (() => {
  const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
  // (n, m) x (m, p) -> (n, p)
  const matmul = (a, b) => a.map(row => b[0].map((_, c) => row.reduce((s, x, r) => s + x * b[r][c], 0)));
  const transpose = a => a[0].map((_, c) => a.map(row => row[c]));
  function softmax(row) {  // a row of scores -> weights summing to 1 (null: masked)
    const live = row.filter(s => s !== null);
    const top = Math.max(...live);
    const e = row.map(s => (s === null ? 0 : Math.exp(s - top)));
    const total = e.reduce((s, x) => s + x, 0);
    return e.map(x => x / total);
  }
  // One head: x (n, d_in), W (d_in, d) each -> scores (n, n), weights (n, n), outputs (n, d)
  function attention(x, wq, wk, wv, scale) {
    const q = matmul(x, wq), k = matmul(x, wk), v = matmul(x, wv);
    const s = scale === undefined ? Math.sqrt(q[0].length) : scale;
    const scores = q.map(qi => k.map(kj => dot(qi, kj) / s));
    const weights = scores.map(softmax);
    return { scores, weights, outputs: matmul(weights, v) };
  }
  // The colour task's input: one-hot colour, then the number (model/task.py encode)
  const encode = (colours, values, nColours) =>
    colours.map((c, i) => [...Array.from({ length: nColours }, (_, j) => (j === c ? 1 : 0)), values[i]]);
  function colourMap(weights, colours, values, nColours) {  // the trained model's map (n, n)
    return attention(encode(colours, values, nColours), weights.w_q, weights.w_k, weights.w_v).weights;
  }
  // The colour task's model on one sequence: the head's outputs read out to one number per
  // position (model/task.py's readout); weights as the data file's (readout_w, readout_b)
  function colourOutputs(weights, colours, values, nColours) {
    const x = encode(colours, values, nColours);
    const out = attention(x, weights.w_q, weights.w_k, weights.w_v).outputs;
    return out.map(row => dot(row, weights.readout_w) + weights.readout_b);
  }
  // What it should output: at each position, the mean of the numbers of its colour
  // (model/task.py targets_for)
  const colourTargets = (colours, values) => colours.map(ci => {
    const same = values.filter((_, j) => colours[j] === ci);
    return same.reduce((s, v) => s + v, 0) / same.length;
  });
  const selfShare = map => map.reduce((s, row, i) => s + row[i], 0) / map.length;
  function officeWeights(query, keys, scale) {  // softmax of q.k / scale over the people
    return softmax(keys.map(k => dot(query, k) / scale));
  }
  function scoresAt(q, k, i, t) {  // word i's row at temperature t, step by step:
    const qk = k.map(kj => dot(q[i], kj));  // q.k with every key,
    const scaled = qk.map(s => s / (Math.sqrt(q[0].length) * t));  // / (sqrt(d) T),
    return { qk, scaled, weights: softmax(scaled) };  // and softmax
  }
  function shuffleRun(sentence, permutation, positions) {  // pitfall 3, as model/probes.py
    const add = (x, table) => x.map((row, p) => row.map((v, c) => v + table[p][c]));
    const x = positions ? add(sentence.x, sentence.table) : sentence.x;
    const run = rows => attention(rows, sentence.w_q, sentence.w_k, sentence.w_v).outputs;
    const out = run(x);
    const shuffled = permutation.map(p => sentence.x[p]);
    const outOfShuffled = run(positions ? add(shuffled, sentence.table) : shuffled);
    const shuffledOut = permutation.map(p => out[p]);
    let diff = 0;
    outOfShuffled.forEach((row, i) => row.forEach((v, c) => { diff = Math.max(diff, Math.abs(v - shuffledOut[i][c])); }));
    return { out, out_of_shuffled: outOfShuffled, shuffled_out: shuffledOut, max_abs_diff: diff };
  }
  // A seeded generator, so that a draw can be repeated: mulberry32, and Box-Muller normals
  function generator(seed) {
    let a = seed >>> 0;
    const uniform = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
    return { uniform, normal };
  }
  // The viewer's own sentence, step by step (model/handmade.py's walk, every row):
  // x (n, d), W (d, d) each -> Q, K, V (n, d), raw scores Q·Kᵀ (n, n), scaled by √d (null
  // where the causal mask hides a later word), the weights (n, n) and the outputs (n, d)
  function sentenceRun(x, wq, wk, wv, causal) {
    const q = matmul(x, wq), k = matmul(x, wk), v = matmul(x, wv);
    const root = Math.sqrt(q[0].length);
    const scores = q.map(qi => k.map(kj => dot(qi, kj)));
    const scaled = scores.map((row, i) => row.map((s, j) => (causal && j > i ? null : s / root)));
    const weights = scaled.map(softmax);
    return { q, k, v, scores, scaled, weights, outputs: matmul(weights, v), root };
  }
  // A typed sentence -> its words: split at spaces; in a language written without them,
  // each run of characters is cut greedily into the longest words of ``known`` (a character
  // of its own where none fits). Punctuation around a word is dropped.
  function segment(text, known, spaces) {
    const fold = w => w.toLocaleLowerCase();
    const table = new Map(known.map(w => [fold(w), w]));
    const longest = Math.max(1, ...known.map(w => [...w].length));
    const words = [];
    for (const chunk of text.split(/\s+/)) {
      const bare = chunk.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, "");
      if (!bare) continue;
      if (spaces) { words.push(table.get(fold(bare)) || bare); continue; }
      // a run of Han characters is cut into words; a run of other letters is one word
      for (const run of bare.match(/\p{Script=Han}+|[^\p{Script=Han}\p{P}\p{S}]+/gu) || []) {
        if (!/\p{Script=Han}/u.test(run)) { words.push(table.get(fold(run)) || run); continue; }
        const chars = [...run];
        for (let i = 0; i < chars.length;) {
          let size = Math.min(longest, chars.length - i);
          while (size > 1 && !table.has(fold(chars.slice(i, i + size).join("")))) size--;
          const piece = chars.slice(i, i + size).join("");
          words.push(table.get(fold(piece)) || piece);
          i += size;
        }
      }
    }
    return words;
  }
  return { dot, matmul, transpose, softmax, attention, encode, colourMap, selfShare,
           colourOutputs, colourTargets, officeWeights, scoresAt, shuffleRun, generator, sentenceRun,
           segment };
})();
window.LabMath = LabMath;

(() => {
  const L = window.LECTURE, lab = L.lab;
  if (!lab || location.hash === "#view") return;  // the presenter's window shows words only
  const W = lab.words, M = LabMath;
  const $ = (tag, attrs = {}, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") e.textContent = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    children.forEach(c => e.append(c));
    return e;
  };
  const svgNS = "http://www.w3.org/2000/svg";
  const S = (tag, attrs = {}) => {
    const e = document.createElementNS(svgNS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };
  const svgLabel = (content, attrs) => {  // a picture's words: muted, 12 of its units high
    const t = S("text", { fill: "#9aa0aa", "font-size": 12, ...attrs });
    t.textContent = content;
    return t;
  };
  const fill = (t, f) => t.replace(/\{(\w+)\}/g, (w, n) => (n in f ? f[n] : w));
  const fixed = (x, d = 2) => { const s = x.toFixed(d); return Number(s) === 0 ? (0).toFixed(d) : s; };
  const power = e => "10" + String(e).replace(/./g, ch => "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"["-0123456789".indexOf(ch)]);
  const sci = x => (x === 0 ? "0" : x.toExponential(1).replace(/e([+-]\d+)/, (m, p) => "×" + power(Number(p))));
  // A coloured cell: its fill, and its text in black or white, whichever stands out more
  // (WCAG contrast: at least 4.58:1, the square root of 21, on any fill)
  const linear = c => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  function paint([r, g, b]) {
    const l = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    const ink = (1.05 / (l + 0.05)) > ((l + 0.05) / 0.05) ? "#fff" : "#000";
    return `background:rgb(${r},${g},${b});color:${ink}`;
  }
  const hex = fill => paint([1, 3, 5].map(i => parseInt(fill.slice(i, i + 2), 16)));  // "#rrggbb"
  // A map's cell: grey from the page's dark (weight 0) to white (weight 1)
  const grey = w => Math.round(27 + Math.min(Math.max(w, 0), 1) * 228);
  const cellStyle = w => paint([grey(w), grey(w), grey(w)]);
  const rootText = r => fixed(r, Number.isInteger(r) ? 0 : 3);  // √4 is 2, √2 is 1.414
  const share = w => fixed(w, 3);  // a weight on a map: 1/8 is 0.125, never 0.13 beside 0.12

  // --- the lab's frame: a tab per demo, each opened from its chapter too ---------------
  const root = document.getElementById("lab");
  const tabs = $("div", { role: "tablist", "aria-label": W.heading, class: "tabs" });
  const panels = $("div", { class: "panels" });
  root.append($("h2", { text: W.heading }), tabs, panels);
  const demos = {};
  function demo(name, build) {
    const tab = $("button", { role: "tab", id: `tab-${name}`, "aria-controls": `demo-${name}`,
                              "aria-selected": "false", text: W[name] });
    const panel = $("div", { role: "tabpanel", id: `demo-${name}`, "aria-labelledby": `tab-${name}`,
                             class: "demo", hidden: "" });
    const chapter = L.chapters.findIndex(c => (lab.chapters[name] || []).includes(c.scene));
    if (chapter >= 0) {
      panel.append($("button", { class: "watch", text: W.watch,
                                 onclick: () => { video.currentTime = L.chapters[chapter].start; play(); } }));
    }
    tab.addEventListener("click", () => open(name));
    tabs.append(tab);
    panels.append(panel);
    demos[name] = { tab, panel, chapter };
    build(panel);
  }
  function open(name) {
    for (const [k, d] of Object.entries(demos)) {
      d.panel.hidden = k !== name;
      d.tab.setAttribute("aria-selected", String(k === name));
      d.tab.tabIndex = k === name ? 0 : -1;  // one tab stop; the arrows move between tabs
    }
    demos[name].panel.dispatchEvent(new Event("lab-open"));  // a demo may wait to be seen
  }
  tabs.addEventListener("keydown", e => {  // the WAI-ARIA tabs pattern
    const names = [...tabs.children].map(tab => tab.id.replace(/^tab-/, ""));  // as shown
    const here = names.findIndex(k => demos[k].tab === document.activeElement);
    const step = { ArrowRight: 1, ArrowLeft: -1, Home: -here, End: names.length - 1 - here }[e.key];
    if (here < 0 || step === undefined) return;
    const next = names[(here + step + names.length) % names.length];
    open(next);
    demos[next].tab.focus();
    e.preventDefault();
  });
  window.Lab = { open, demos };
  const video = document.getElementById("video");

  // --- 1. the office: drag the Query arrow ---------------------------------------------
  demo("office", panel => {
    const o = lab.office, size = 360, unit = size / 6, mid = size / 2, margin = 120;
    const at = ([x, y]) => [mid + x * unit, mid - y * unit];
    const svg = S("svg", { viewBox: `0 0 ${size + margin} ${size}`, class: "board" });  // sized by the page
    // Each Key an arrow from the origin, as the Query is: the dot product compares directions
    const keys = o.keys.map(k => { const [x2, y2] = at(k); return S("line", { x1: mid, y1: mid, x2, y2, stroke: lab.roles.key, "stroke-width": 2, opacity: 0.6 }); });
    const dots = o.keys.map(k => { const [cx, cy] = at(k); return S("circle", { cx, cy, r: 7, fill: lab.roles.key }); });
    const names = o.keys.map((k, i) => {
      const [x, y] = at(k); const t = S("text", { x: x + 10, y: y - 8, fill: "#ececec", "font-size": 12 });
      t.textContent = `${o.people[i]} · ${fill(W.office_days, { days: o.values[i] })}`; return t;
    });
    const arrow = S("line", { x1: mid, y1: mid, stroke: lab.roles.query, "stroke-width": 4 });
    const head = S("circle", { r: 9, fill: lab.roles.query, tabindex: 0, role: "slider",
                               "aria-label": W.query_label, class: "handle",
                               "aria-valuemin": -3, "aria-valuemax": 3 });
    const clamp = v => Math.max(-3, Math.min(3, v));
    svg.append(S("circle", { cx: mid, cy: mid, r: 3, fill: "#9aa0aa" }), ...keys, ...dots, ...names, arrow, head);
    const bars = $("div", { class: "bars" });
    const output = $("p", { class: "output" });
    panel.append($("p", { text: W.office_hint }), $("div", { class: "row" }, svg, $("div", { class: "grow" }, bars, output)));
    let query = o.start.slice();
    function draw() {
      const [x, y] = at(query);
      arrow.setAttribute("x2", x); arrow.setAttribute("y2", y);
      head.setAttribute("cx", x); head.setAttribute("cy", y);
      const weights = M.officeWeights(query, o.keys, o.scale);
      bars.replaceChildren(...weights.map((w, i) => $("div", { class: "bar" },
        $("span", { text: o.people[i] }), $("i", { style: `width:${w * 100}%` }), $("b", { text: fixed(w) }))));
      const out = weights.reduce((s, w, i) => s + w * o.values[i], 0);
      output.textContent = fill(W.office_output, { out: fixed(out) });
      head.setAttribute("aria-valuenow", fixed(query[0]));
      head.setAttribute("aria-valuetext", `${fixed(query[0])}, ${fixed(query[1])}`);
      panel.dataset.weights = JSON.stringify(weights);
    }
    function toQuery(event) {  // through the screen's matrix: right when scaled or letterboxed too
      const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
      query = [clamp((p.x - mid) / unit), clamp((mid - p.y) / unit)];
      draw();
    }
    let dragging = false;
    svg.addEventListener("pointerdown", e => { dragging = true; toQuery(e); });
    window.addEventListener("pointermove", e => { if (dragging) toQuery(e); });
    window.addEventListener("pointerup", () => { dragging = false; });
    head.addEventListener("keydown", e => {
      const step = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, 0.1], ArrowDown: [0, -0.1] }[e.key];
      if (!step) return;
      query = [clamp(query[0] + step[0]), clamp(query[1] + step[1])];
      draw(); e.preventDefault(); e.stopPropagation();
    });
    draw();
  });

  // --- 2. the colour task, trained in this browser when its tab is first opened ----------
  const REDRAW_EVERY = 25;  // steps between two redraws of the map, the outputs and the curve
  const FRAME_MS = 16;  // the training's work between two frames: the page keeps answering
  const LOSS_EVERY = 10;  // the curve's points: the loss of every tenth batch
  const TF_FILE = "tf.min.js";  // beside index.html (render.py copies it there)
  let library = null;  // tf.min.js being loaded (a promise of window.tf), once
  const CURVE = { w: 280, h: 170, left: 40, right: 14, top: 24, bottom: 36 };  // the loss curve's box
  demo("colours", panel => {
    const c = lab.colours, k = c.names.length, values = c.example.values;
    const status = $("p", { class: "status", "aria-live": "polite" });  // busy while it trains: read at the end
    const again = $("button", { class: "again", text: W.train_again, hidden: "",
                                onclick: () => { if (!training) start(); } });
    const note = $("p", { class: "muted", text: W.not_the_video });
    const curve = S("svg", { viewBox: `0 0 ${CURVE.w} ${CURVE.h}`, class: "loss", role: "img",
                             "aria-label": W.loss_axis });
    const strip = $("div", { class: "strip" });
    const buttons = $("div", { class: "row" },
      $("button", { text: W.all_same, onclick: () => setPattern(c.patterns.all_same) }),
      $("button", { text: W.halves, onclick: () => setPattern(c.patterns.halves) }));
    const whose = $("p", { class: "muted", text: W.map_video });
    const grid = $("div", { class: "map colourmap", role: "table", "aria-label": W.map_video });
    const rows = $("div", { class: "map colourmap", role: "table", "aria-label": W.outputs_table });
    panel.append($("div", { class: "row" }, status, again), note, curve, $("p", { text: W.colour_hint }),
      strip, buttons, whose, $("p", { class: "muted", text: W.map_axes }), grid, rows);
    let colours = c.example.colours.slice();
    let weights = c.weights;  // the video's model until this browser's starts training
    let training = false, run = 0;
    function setPattern(p) { colours = p.slice(); drawMap(); }
    // The positions' colours as a map's headers: a chip each, named "position 3: blue"
    const chip = (role, ci, i) => $("span", { role, class: role, style: hex(c.fills[ci]),
      text: c.labels[ci], "aria-label": fill(W.position, { k: i + 1, colour: c.names[ci] }) });
    const heads = () => $("div", { class: "maprow", role: "row" }, $("span", { class: "corner" }),
      ...colours.map((ci, i) => chip("columnheader", ci, i)));
    function drawMap() {
      strip.replaceChildren(...colours.map((ci, i) => $("button", {
        class: "cell", style: hex(c.fills[ci]), text: c.labels[ci],
        "aria-label": fill(W.position, { k: i + 1, colour: c.names[ci] }),
        onclick: () => { colours[i] = (colours[i] + 1) % k; drawMap(); },
      })));
      const map = M.colourMap(weights, colours, values, k);
      grid.setAttribute("aria-label", whose.textContent);
      grid.replaceChildren(heads(), ...map.map((row, i) => $("div", { class: "maprow", role: "row" },
        chip("rowheader", colours[i], i),
        ...row.map(w => $("span", { role: "cell", style: cellStyle(w), text: share(w) })))));
      // Below the map, per position: its number, the right answer and the model's output,
      // unshaded (the grey above means a weight; these are signed numbers), in two decimals
      // (a minus sign and three would not fit a phone's column)
      const targets = M.colourTargets(colours, values), outputs = M.colourOutputs(weights, colours, values, k);
      const line = (label, xs) => $("div", { class: "maprow labelled", role: "row" },
        $("span", { role: "rowheader", class: "label", text: label }), $("span", { class: "corner" }),
        ...xs.map(x => $("span", { role: "cell", class: "number", text: fixed(x) })));
      rows.replaceChildren(heads(), line(W.numbers_row, values), line(W.targets_row, targets),
        line(W.outputs_row, outputs));
      Object.assign(panel.dataset, { map: JSON.stringify(map), targets: JSON.stringify(targets),
                                     outputs: JSON.stringify(outputs) });
    }
    function redraw(now, step) {  // the model as it is at this step
      weights = now;
      whose.textContent = fill(W.map_training, { step, steps: c.steps });
      drawMap();
    }
    async function start() {
      training = true;
      status.setAttribute("aria-busy", "true");
      again.setAttribute("aria-disabled", "true");  // stays focusable: focus is not lost
      run += 1;
      const learned = await train(c, run, status, curve, redraw);
      if (learned) {
        weights = learned;
        whose.textContent = W.map_browser;
        drawMap();
        again.hidden = false;
      }
      again.removeAttribute("aria-disabled");
      status.removeAttribute("aria-busy");
      training = false;
    }
    panel.addEventListener("lab-open", () => { if (run === 0) start(); });  // once: when first seen
    drawMap();
  });

  // tf.min.js, fetched the first time it is needed: a page whose colour task is never
  // opened neither loads its 1.4 MB nor trains
  function tensorflow() {
    library = library || new Promise(resolve => {
      const script = $("script", { src: TF_FILE, onload: () => resolve(window.tf),
                                   onerror: () => { script.remove(); library = null; resolve(undefined); } });
      document.head.append(script);
    });
    return library;
  }

  // The same model and task as model/: a head of width d and a readout, Adam, MSE on the
  // same-colour means; its own draws (a seeded generator, another seed each run), so its
  // numbers differ. ``redraw(weights, step)`` is shown the model every REDRAW_EVERY steps.
  async function train(c, run, status, curve, redraw) {
    const tf = await tensorflow();
    if (!tf) { status.textContent = fill(W.tf_missing, { file: TF_FILE }); return null; }
    await tf.setBackend("cpu");  // tensors this small run faster on the CPU than through WebGL
    const n = c.positions, k = c.names.length, din = k + 1, d = c.d;
    const g = M.generator(c.seed + run);
    const batch = size => {
      const cols = [], vals = [], targets = [];
      for (let b = 0; b < size; b++) {
        const cs = Array.from({ length: n }, () => Math.floor(g.uniform() * k));
        const vs = Array.from({ length: n }, () => g.normal());
        cols.push(cs); vals.push(vs); targets.push(M.colourTargets(cs, vs));
      }
      return { x: tf.tensor3d(cols.map((cs, b) => M.encode(cs, vals[b], k))), y: tf.tensor2d(targets) };
    };
    const init = (rows, cols) => {  // torch.nn.Linear's: uniform in ±1/sqrt(fan_in)
      const bound = 1 / Math.sqrt(rows);
      return tf.variable(tf.tensor2d(Array.from({ length: rows }, () => Array.from({ length: cols }, () => (2 * g.uniform() - 1) * bound))));
    };
    const wq = init(din, d), wk = init(din, d), wv = init(din, d), wr = init(d, 1);
    const br = tf.variable(tf.tensor1d([(2 * g.uniform() - 1) / Math.sqrt(d)]));
    const forward = x => tf.tidy(() => {
      const [B] = x.shape;
      const flat = x.reshape([B * n, din]);
      const q = flat.matMul(wq).reshape([B, n, d]), kk = flat.matMul(wk).reshape([B, n, d]);
      const v = flat.matMul(wv).reshape([B, n, d]);
      const a = tf.softmax(tf.matMul(q, kk, false, true).div(Math.sqrt(d)));
      return tf.matMul(a, v).reshape([B * n, d]).matMul(wr).add(br).reshape([B, n]);
    });
    // The weights as the data file holds the video's: what LabMath draws the map from
    const now = () => ({ w_q: wq.arraySync(), w_k: wk.arraySync(), w_v: wv.arraySync(),
                         readout_w: wr.arraySync().map(r => r[0]), readout_b: br.arraySync()[0] });
    const optimizer = tf.train.adam(c.lr, 0.9, 0.999, 1e-8);  // torch.optim.Adam's defaults
    const val = batch(c.val_size);
    const losses = [];  // [steps taken before the batch, its loss]
    const state = window.LabTraining = { run, steps: c.steps, step: 0, redraws: 0, done: false };
    const show = step => {
      state.step = step;
      state.weights = now();
      redraw(state.weights, step);
      state.redraws += 1;
      status.textContent = fill(W.training, { step, steps: c.steps });
      drawCurve(curve, losses, c.steps);
    };
    show(0);
    let ms = 0;  // the steps' own time: not the redraws, the frames between, or presenting
    const presenting = () => document.body.classList.contains("present");
    for (let step = 0; step < c.steps;) {
      await new Promise(r => setTimeout(r, 0));  // a frame for the page between two slices
      while (presenting()) await new Promise(r => setTimeout(r, 250));  // the lecture first
      const slice = performance.now();
      while (step < c.steps && performance.now() - slice < FRAME_MS) {
        const began = performance.now();
        const { x, y } = batch(c.batch_size);
        const loss = optimizer.minimize(() => tf.losses.meanSquaredError(y, forward(x)), true, [wq, wk, wv, wr, br]);
        if (step % LOSS_EVERY === 0 || step === c.steps - 1) losses.push([step, loss.dataSync()[0]]);
        tf.dispose([x, y, loss]);
        step += 1;
        ms += performance.now() - began;
        if (step % REDRAW_EVERY === 0 || step === c.steps) show(step);
      }
    }
    const mse = tf.tidy(() => tf.losses.meanSquaredError(val.y, forward(val.x)).dataSync()[0]);
    const baseline = tf.tidy(() => val.y.square().mean().dataSync()[0]);
    status.textContent = fill(W.trained, { steps: c.steps, ms: Math.round(ms), mse: sci(mse), baseline: fixed(baseline, 3) });
    const learned = now();
    tf.dispose([wq, wk, wv, wr, br, val.x, val.y]);
    optimizer.dispose();
    Object.assign(state, { ms, mse, baseline, losses: losses.length, weights: learned, done: true });
    return learned;
  }

  // The loss curve: the step across (0 to the lecture's steps), the loss up on a log scale
  // (it falls by orders of magnitude), a label at each power of ten
  function drawCurve(svg, losses, steps) {
    const { w, h, left, right, top, bottom } = CURVE, width = w - left - right, height = h - top - bottom;
    const logs = losses.map(([, l]) => Math.log10(Math.max(l, 1e-12)));
    const hi = logs.length ? Math.ceil(Math.max(...logs)) : 0;
    const lo = Math.min(logs.length ? Math.floor(Math.min(...logs)) : hi - 1, hi - 1);
    const x = step => left + (step / steps) * width, y = l => top + ((hi - l) / (hi - lo)) * height;
    const parts = [S("path", { d: `M${left},${top}V${top + height}H${left + width}`, fill: "none", stroke: "#9aa0aa" })];
    for (let e = lo; e <= hi; e++) {  // decades
      parts.push(S("line", { x1: left - 4, x2: left, y1: y(e), y2: y(e), stroke: "#9aa0aa" }),
                 svgLabel(power(e), { x: left - 6, y: y(e) + 4, "text-anchor": "end", class: "decade" }));
    }
    const every = [1, 2, 2.5, 5, 10].map(m => m * 10 ** Math.floor(Math.log10(steps / 4)))
      .find(s => steps / s <= 4);
    for (let s = 0; s <= steps; s += every) {  // steps, four or five ticks
      parts.push(S("line", { x1: x(s), x2: x(s), y1: top + height, y2: top + height + 4, stroke: "#9aa0aa" }),
                 svgLabel(String(s), { x: x(s), y: top + height + 15, "text-anchor": "middle", class: "tick" }));
    }
    parts.push(svgLabel(W.step_axis, { x: left + width / 2, y: h - 4, "text-anchor": "middle", class: "title" }),
               svgLabel(W.loss_axis, { x: 4, y: 12, class: "title" }));
    if (losses.length) {
      parts.push(S("polyline", { points: losses.map(([s], i) => `${x(s)},${y(logs[i])}`).join(" "),
                                 fill: "none", stroke: "#ececec", "stroke-width": 1.5 }));
      const [s, l] = losses[losses.length - 1];
      svg.setAttribute("aria-label", `${W.loss_axis}: ${fill(W.loss_at, { loss: sci(l), step: s })}`);
    }
    svg.replaceChildren(...parts);
  }

  // --- 3. pitfall 1: projection on and off ---------------------------------------------
  demo("projection", panel => {
    const p = lab.projection, n = p.positions, width = p.width;
    let seed = 1, projected = false;
    const toggle = $("input", { type: "checkbox", id: "with-projection" });
    const grid = $("div", {});  // the map, its rows and columns the positions 1 to n
    const places = Array.from({ length: n }, (_, i) => String(i + 1));
    const shareLine = $("p", { "aria-live": "polite" });
    panel.append($("p", { text: W.projection_hint }),
      $("div", { class: "row" }, $("label", {}, toggle, " " + W.with_projection),
        $("button", { text: W.draw_again, onclick: () => { seed += 1; draw(); } })),
      grid, shareLine,
      $("p", { class: "muted", text: fill(W.projection_summary, { draws: p.draws, plain: fixed(p.plain.mean), projected: fixed(p.projected.mean) }) }));
    toggle.addEventListener("change", () => { projected = toggle.checked; draw(); });
    function draw() {
      const g = M.generator(seed);
      const x = Array.from({ length: n }, () => Array.from({ length: width }, g.normal));
      const rand = () => Array.from({ length: width }, () => Array.from({ length: width }, () => g.normal() / Math.sqrt(width)));
      const wq = rand(), wk = rand();
      const eye = Array.from({ length: width }, (_, i) => Array.from({ length: width }, (_, j) => (i === j ? 1 : 0)));
      const map = projected ? M.attention(x, wq, wk, eye).weights : M.attention(x, eye, eye, eye).weights;
      grid.replaceChildren(matrix("projection", W.map_axes, places, places, map, share, { heat: true }));
      shareLine.textContent = fill(W.self_share, { share: fixed(M.selfShare(map)), uniform: fixed(p.uniform_share, 3) });
      panel.dataset.share = String(M.selfShare(map));
    }
    draw();
  });

  // --- 4. pitfall 2: the d slider --------------------------------------------------------
  demo("sqrt_d", panel => {
    const s = lab.sqrt_d, rows = s.dims;
    const slider = $("input", { type: "range", min: 0, max: rows.length - 1, step: 1, value: 0,
                                "aria-label": "d" });
    const label = $("output", {});
    const bars = $("div", { class: "pair" });
    // The curve: d across (one step per row: each doubles, so the axis is d's logarithm),
    // the mean largest weight up (0 to 1), with ticks; text sized in the picture's units, so
    // the width it is drawn at (at most 30rem) keeps it readable
    const box = { w: 320, h: 160, left: 34, right: 10, top: 8, bottom: 40 };
    const curve = S("svg", { viewBox: `0 0 ${box.w} ${box.h}`, class: "curve wide", role: "img",
                             "aria-label": fill(W.sqrt_d_curve, { draws: s.draws }) });
    const key = (text, dash) => $("span", { class: "key" + (dash ? " dashed" : ""), text });
    panel.append($("p", { text: W.sqrt_d_hint }), $("div", { class: "row" }, slider, label), bars,
      $("p", { class: "muted" }, fill(W.sqrt_d_curve, { draws: s.draws }) + ": ", key(W.unscaled, true), " ", key(W.scaled, false)),
      curve);
    const across = i => box.left + (i / (rows.length - 1)) * (box.w - box.left - box.right);
    const up = w => box.h - box.bottom - w * (box.h - box.top - box.bottom);
    for (const w of [0, 0.5, 1]) {
      curve.append(S("line", { x1: box.left, x2: box.w - box.right, y1: up(w), y2: up(w), stroke: "#3a3f4a" }),
                   svgLabel(fixed(w, 1), { x: box.left - 5, y: up(w) + 4, "text-anchor": "end" }));
    }
    rows.forEach((r, i) => curve.append(svgLabel(String(r.d), { x: across(i), y: box.h - box.bottom + 14, "text-anchor": "middle" })));
    curve.append(svgLabel(W.sqrt_d_axis, { x: (box.left + box.w - box.right) / 2, y: box.h - 6, "text-anchor": "middle" }));
    const line = key => rows.map((r, i) => `${across(i)},${up(r[key])}`).join(" ");
    curve.append(S("polyline", { points: line("mean_max_unscaled"), fill: "none", stroke: "#9aa0aa", "stroke-dasharray": "4 3", "stroke-width": 2 }),
                 S("polyline", { points: line("mean_max_scaled"), fill: "none", stroke: "#ececec", "stroke-width": 2 }));
    const marker = S("line", { y1: up(1), y2: up(0), stroke: "#f2c94c" });
    curve.append(marker);
    function draw() {
      const r = rows[Number(slider.value)];
      label.textContent = fill(W.d_label, { d: r.d });
      slider.setAttribute("aria-valuetext", label.textContent);
      const unscaled = M.softmax(r.example_scores), scaled = M.softmax(r.example_scores.map(x => x / Math.sqrt(r.d)));
      const column = (title, ws) => $("div", { class: "bars" }, $("b", { text: title }),
        ...ws.map(w => $("div", { class: "bar" }, $("i", { style: `width:${w * 100}%` }), $("b", { text: fixed(w) }))));
      bars.replaceChildren(column(W.unscaled, unscaled), column(W.scaled, scaled));
      const x = across(Number(slider.value));
      marker.setAttribute("x1", x); marker.setAttribute("x2", x);
      panel.dataset.weights = JSON.stringify({ unscaled, scaled });
    }
    slider.addEventListener("input", draw);
    draw();
  });

  // --- 5. pitfall 3: shuffle -------------------------------------------------------------
  demo("shuffle", panel => {
    const s = lab.shuffle;
    let order = s.tokens.map((_, i) => i), positions = false;
    const toggle = $("input", { type: "checkbox", id: "with-positions" });
    const words = $("div", { class: "words" });  // the outputs, a row per word in the order shown
    const diff = $("p", { "aria-live": "polite" });
    panel.append($("p", { text: W.shuffle_hint }),
      $("div", { class: "row" }, $("button", { text: W.shuffle_button, onclick: () => { order = shuffled(order); draw(); } }),
        $("label", {}, toggle, " " + W.with_positions)), words, diff);
    toggle.addEventListener("change", () => { positions = toggle.checked; draw(); });
    let seed = 7;
    function shuffled(o) {
      const g = M.generator(seed++), a = o.slice();
      for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(g.uniform() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
      return a;
    }
    function draw() {
      const run = M.shuffleRun(s, order, positions);
      words.replaceChildren(matrix("shuffle", W.outputs, order.map(p => s.tokens[p]), s.dims,
                                   run.out_of_shuffled, v => fixed(v), { colour: lab.roles.value }));
      const most = run.max_abs_diff;  // exactly 0 without positions: the same sums, moved
      diff.textContent = fill(W.shuffle_diff, { diff: most === 0 ? fixed(0, 3) : sci(most) });
      panel.dataset.diff = String(run.max_abs_diff);
    }
    draw();
  });

  // --- 6. it -> cat: choose the asking word, turn T, point at the formula -----------------
  demo("it_cat", panel => {
    const c = lab.it_cat;
    let row = c.query, t = 1;
    const slider = $("input", { type: "range", min: 0.1, max: 5, step: 0.05, value: 1, "aria-label": "T",
                                "data-lit": "t" });
    const label = $("output", { "data-lit": "t" });
    // Each symbol, focused or pointed at, outlines what it names (data-lit): q the asking
    // word, k every word as a key, √d the scaled column, T the slider, softmax the weights.
    const part = (name, text, colour = "") => $("span", { "data-part": name, tabindex: 0, role: "math",
                                             "aria-label": W[`formula_${name}`], text, style: colour && `color:${colour}` });
    const formula = $("p", { class: "formula" }, part("softmax", "softmax("), part("q", "q", lab.roles.query), "·",
      part("k", "k", lab.roles.key), " / (", part("d", "√d"), " · ", part("t", "T"), part("softmax", "))"));
    const root = Math.sqrt(c.q[0].length);
    const heading = $("div", { class: "score heading", "aria-hidden": "true" },
      $("span", { text: W.it_cat_word }), $("span", { text: W.it_cat_qk }),
      $("span", { text: fill(W.it_cat_scaled, { root: rootText(root) }) }),
      $("span", { class: "weight", text: W.it_cat_weight }));
    // The rows are made once and updated in place, so that the focus stays on the one chosen.
    const rows = c.tokens.map((tok, j) => $("div", { class: "score", role: "option", onclick: () => choose(j) },
      $("span", { "data-lit": "k", text: tok }), $("span", {}), $("span", { "data-lit": "d" }),
      $("i", { "data-lit": "softmax" }), $("b", { "data-lit": "softmax" })));
    const table = $("div", { class: "tokens", role: "listbox", "aria-label": W.it_cat }, ...rows);
    const sum = $("p", {});
    panel.append($("p", { text: W.it_cat_hint }), formula, $("div", { class: "row" }, slider, label),
      heading, table, sum);
    slider.addEventListener("input", () => { t = Number(slider.value); draw(); });
    formula.querySelectorAll("[data-part]").forEach(symbol => {  // pointed at, or reached by Tab
      const name = symbol.dataset.part;
      const light = on => panel.querySelectorAll(`[data-lit~="${name}"]`).forEach(e => e.classList.toggle("lit", on));
      for (const [kind, on] of [["mouseenter", true], ["focus", true], ["mouseleave", false], ["blur", false]]) {
        symbol.addEventListener(kind, () => light(on));
      }
    });
    function choose(j) { row = j; draw(); }
    table.addEventListener("keydown", e => {  // a listbox: one tab stop, the arrows move the choice
      const here = rows.indexOf(document.activeElement);
      const next = { ArrowDown: here + 1, ArrowUp: here - 1, Home: 0, End: rows.length - 1,
                     Enter: here, " ": here }[e.key];
      if (here < 0 || next === undefined) return;
      choose(Math.min(Math.max(next, 0), rows.length - 1));
      rows[row].focus();
      e.preventDefault();
    });
    function draw() {
      label.textContent = fill(W.t_label, { t: fixed(t) });
      const { qk, scaled, weights } = M.scoresAt(c.q, c.k, row, t);
      rows.forEach((option, j) => {
        const [word, dot, divided, bar, weight] = option.children;
        const shown = { word: c.tokens[j], qk: fixed(qk[j]), scaled: fixed(scaled[j], 3), weight: share(weights[j]) };
        option.classList.toggle("looking", j === row);
        option.setAttribute("aria-selected", String(j === row));
        option.setAttribute("aria-label", fill(W.it_cat_option, shown));
        option.tabIndex = j === row ? 0 : -1;
        word.dataset.lit = j === row ? "k q" : "k";  // the asking word is a key as well
        word.style.color = j === row ? lab.roles.query : "";  // it asks: its Query's colour
        dot.textContent = shown.qk;
        divided.textContent = shown.scaled;
        bar.style.width = `${weights[j] * 100}%`;
        weight.textContent = shown.weight;
      });
      sum.textContent = fill(W.row_sum, { sum: share(weights.reduce((s, w) => s + w, 0)) });
      Object.assign(panel.dataset, { row: JSON.stringify(weights), qk: JSON.stringify(qk),
                                     scaled: JSON.stringify(scaled) });
    }
    draw();
  });

  // --- 7. the quiz: answered at once ----------------------------------------------------
  demo("quiz", panel => {
    lab.quiz.forEach((q, k) => {
      const verdict = $("p", { "aria-live": "polite", class: "verdict" });
      const choices = $("div", { class: "row", role: "group", "aria-label": q.question },
        ...q.choices.map((text, j) => $("button", { text, "aria-pressed": "false", onclick: e => {
          const right = j === q.right;
          choices.querySelectorAll("button").forEach(b => b.setAttribute("aria-pressed", String(b === e.currentTarget)));
          verdict.textContent = (right ? W.right : W.wrong) + " " + (right ? q.answer : "");
          verdict.className = "verdict " + (right ? "right" : "wrong");
        } })));
      panel.append($("h3", { text: `${k + 1}. ${q.question}` }), choices, verdict);
    });
  });

  // A labelled matrix: its title in a role's colour, a word or a dimension naming each row
  // and column, each cell its value; hovering (or focusing) a cell says how it was computed
  // and lights the cells it came from (the panel's `explain`). Options: `colour` (the title's),
  // `heat` (cells shaded as weights), `asks` (rows are the words asking, in the Query's
  // colour, columns the words asked, in the Key's), `masked(i, j)` (a cell the causal mask
  // hides: hatched, its value shown muted), `tight` (many narrow columns: their names stand
  // upright).
  function matrix(key, title, rows, cols, values, format,
                  { colour = "", heat = false, asks = false, masked = () => false, tight = false } = {}) {
    const grid = $("div", { class: "mat" + (tight ? " tight" : ""), role: "table", "aria-label": title, "data-m": key,
                            style: `--cols:${cols.length}` });
    const tint = role => (asks ? `color:${lab.roles[role]}` : "");
    grid.append($("div", { role: "row", class: "mrow" }, $("span", { role: "columnheader", class: "corner" }),
      ...cols.map(c => $("span", { role: "columnheader", text: c, style: tint("key") }))));
    values.forEach((row, i) => grid.append($("div", { role: "row", class: "mrow" },
      $("span", { role: "rowheader", text: rows[i], style: tint("query") }),
      ...row.map((v, j) => $("span", { role: "cell", tabindex: -1, "data-r": i, "data-c": j,
                                       class: masked(i, j) ? "masked" : "",
                                       style: heat && !masked(i, j) ? cellStyle(v) : "", text: format(v) })))));
    const first = grid.querySelector("[role=cell]");
    if (first) first.tabIndex = 0;  // one tab stop a matrix; the arrow keys move in it
    grid.addEventListener("keydown", e => {
      const step = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] }[e.key];
      const cell = e.target.closest("[role=cell]");
      if (!step || !cell) return;
      const next = grid.querySelector(`[data-r="${Number(cell.dataset.r) + step[0]}"][data-c="${Number(cell.dataset.c) + step[1]}"]`);
      if (next) { cell.tabIndex = -1; next.tabIndex = 0; next.focus(); }
      e.preventDefault();
    });
    return $("figure", { class: "matbox" }, $("figcaption", { text: title, style: colour ? `color:${colour}` : "" }), grid);
  }

  // --- 8. your own sentence through the lecture's head ------------------------------------
  demo("sentence", panel => {
    const s = lab.sentence, d = s.dims.length;
    const table = new Map(Object.entries(s.vocabulary).map(([w, x]) => [w, x.slice()]));
    s.tokens.forEach((w, i) => table.set(w, s.x[i].slice()));  // the sentence's own words
    const made = new Set();  // words the viewer gave numbers to
    const input = $("input", { type: "text", id: "sentence-text", value: s.text, "aria-label": W.sentence_label });
    const causal = $("input", { type: "checkbox", id: "sentence-causal" });
    const chips = $("div", { class: "chips", role: "group", "aria-label": W.sentence_words });
    const note = $("p", { class: "muted", "aria-live": "polite" });
    const editor = $("div", { class: "editor" });
    const steps = $("div", { class: "steps" });
    const explain = $("p", { class: "explain", "aria-live": "polite" });
    panel.append($("p", { text: fill(W.sentence_hint, { max: s.max_words, d, dims: s.dims.join(s.spaces ? ", " : "、") }) }),
      $("div", { class: "row" }, $("label", { for: "sentence-text", text: W.sentence_label }), input),
      $("div", { class: "row" }, $("label", {}, causal, " " + W.causal_toggle)),
      chips, note, editor, steps, explain);
    let words = [], shown = [], editing = null, run = null;  // shown: the words the steps are of
    const vector = w => table.get(w) || Array(d).fill(0);
    const two = v => (v === null ? "−∞" : fixed(v));
    function read() {
      const found = M.segment(input.value, [...table.keys()], s.spaces);
      words = found.slice(0, s.max_words);
      const unknown = [...new Set(words.filter(w => !table.has(w) && !made.has(w)))];
      note.textContent = [
        found.length < 2 ? fill(W.sentence_count, { max: s.max_words }) : "",
        found.length > s.max_words ? fill(W.sentence_cut, { max: s.max_words }) : "",
        unknown.length ? fill(W.sentence_unknown, { words: unknown.join(s.spaces ? ", " : "、") }) : "",
      ].filter(Boolean).join(" ");
      if (editing !== null && !words.includes(editing)) editing = null;
      draw();
    }
    function edit(word) {  // one slider per dimension: the word's numbers, wherever it stands
      editing = word;
      const x = vector(word);
      editor.replaceChildren($("b", { text: word }), ...s.dims.map((name, c) => {
        const out = $("output", { text: fixed(x[c], 1) });
        const slider = $("input", { type: "range", min: -2, max: 2, step: 0.1, value: x[c],
                                    "aria-label": fill(W.dim_slider, { word, dim: name }) });
        slider.addEventListener("input", () => {
          const now = vector(word).slice();
          now[c] = Number(slider.value);
          table.set(word, now); made.add(word);
          out.textContent = fixed(now[c], 1);
          draw();
        });
        return $("label", { class: "dim" }, $("span", { text: name }), slider, out);
      }));
    }
    function draw() {
      chips.replaceChildren(...words.map(w => $("button", {
        class: "chip" + (table.has(w) ? "" : " unknown"), text: w, "aria-pressed": String(w === editing),
        onclick: () => { edit(w); draw(); },
      })));
      if (editing === null) editor.replaceChildren();
      if (words.length < 2) return;  // the last sentence's steps stay until this one has two words
      const x = words.map(vector);
      run = { x, ...M.sentenceRun(x, s.w_q, s.w_k, s.w_v, causal.checked) };
      const roles = lab.roles, dims = s.dims;
      const group = (...boxes) => $("div", { class: "stepsrow" }, ...boxes);
      // Narrow screens and long sentences: one decimal fewer, so that "−1.25" fits its column
      const tight = words.length > 6 && matchMedia("(max-width: 30rem)").matches;
      const num = v => (v === null ? "−∞" : fixed(v, tight ? 1 : 2)), weight = w => fixed(w, tight ? 2 : 3);
      const hidden = (i, j) => causal.checked && j > i;
      const asks = { asks: true, masked: hidden, tight };
      // X and the three W's; under each W what it makes (a spacer under X); then the scores
      steps.replaceChildren(
        $("div", { class: "qkv" },
          matrix("x", W.mat_x, words, dims, x, num),
          matrix("w_q", "W_Q", dims, dims, s.w_q, num, { colour: roles.query }),
          matrix("w_k", "W_K", dims, dims, s.w_k, num, { colour: roles.key }),
          matrix("w_v", "W_V", dims, dims, s.w_v, num, { colour: roles.value }),
          $("div", { class: "spacer" }),
          matrix("q", W.mat_q, words, dims, run.q, num, { colour: roles.query }),
          matrix("k", W.mat_k, words, dims, run.k, num, { colour: roles.key }),
          matrix("v", W.mat_v, words, dims, run.v, num, { colour: roles.value })),
        group(matrix("scores", W.mat_scores, words, words, run.scores, num, { asks: true, tight }),
              matrix("scaled", fill(causal.checked ? W.mat_masked : W.mat_scaled, { root: rootText(run.root), d }), words, words, run.scaled, num, asks),
              matrix("weights", W.mat_weights, words, words, run.weights, weight, { ...asks, heat: true }),
              matrix("outputs", W.mat_outputs, words, dims, run.outputs, num, { colour: roles.value })));
      shown = words.slice();
      panel.dataset.run = JSON.stringify({ words, x, ...run });
    }
    // Where each cell comes from: [matrix, row or null, column or null] of its sources.
    const sources = {
      q: (i, c) => [["x", i, null], ["w_q", null, c]], k: (i, c) => [["x", i, null], ["w_k", null, c]],
      v: (i, c) => [["x", i, null], ["w_v", null, c]], scores: (i, j) => [["q", i, null], ["k", j, null]],
      scaled: (i, j) => [["scores", i, j]], weights: i => [["scaled", i, null]],
      outputs: (i, c) => [["weights", i, null], ["v", null, c]],
    };
    function say(cell) {
      const m = cell.closest("[data-m]").dataset.m, i = Number(cell.dataset.r), j = Number(cell.dataset.c);
      panel.querySelectorAll(".mat .lit").forEach(e => e.classList.remove("lit"));
      cell.classList.add("lit");
      for (const [key, r, c] of (sources[m] || (() => []))(i, j)) {
        panel.querySelectorAll(`[data-m="${key}"] [role=cell]`).forEach(e => {
          if ((r === null || Number(e.dataset.r) === r) && (c === null || Number(e.dataset.c) === c)) e.classList.add("lit");
        });
      }
      const row = ["w_q", "w_k", "w_v"].includes(m) ? s.dims[i] : shown[i];
      const col = ["scores", "scaled", "weights"].includes(m) ? shown[j] : s.dims[j];
      const value = { ...run, w_q: s.w_q, w_k: s.w_k, w_v: s.w_v }[m][i][j];
      const f = { row, col, value: m === "weights" ? share(value) : two(value), m: m.slice(-1).toUpperCase(),
                  root: rootText(run.root), score: { scaled: two(run.scores[i]?.[j] ?? null), weights: two(run.scaled[i]?.[j] ?? null) }[m] ?? "" };
      const kind = m.startsWith("w_") ? "w" : ["q", "k", "v"].includes(m) ? "qkv" : m;
      const key = m === "scaled" && value === null ? "explain_masked" : `explain_${kind}`;
      explain.textContent = W[key] ? fill(W[key], f) : "";
    }
    steps.addEventListener("mouseover", e => { const cell = e.target.closest("[role=cell]"); if (cell) say(cell); });
    steps.addEventListener("focusin", e => { const cell = e.target.closest("[role=cell]"); if (cell) say(cell); });
    input.addEventListener("input", read);
    causal.addEventListener("change", draw);
    read();
  });

  // --- 9. heads, and the causal mask, as the video's models learned them -----------------
  demo("heads", panel => {
    const h = lab.heads, c = lab.colours;
    const labels = colours => colours.map((ci, i) => fill(W.position, { k: i + 1, colour: c.names[ci] }));
    function colourMap(map, colours, title) {  // a trained map, its rows and columns the positions' colours
      const chip = ci => $("span", { class: "chipcell", style: hex(c.fills[ci]), text: c.labels[ci] });
      const grid = $("div", { class: "mat", role: "table", "aria-label": title, style: `--cols:${colours.length}` });
      grid.append($("div", { role: "row", class: "mrow" }, $("span", { role: "columnheader", class: "corner" }),
        ...colours.map((ci, j) => $("span", { role: "columnheader", "aria-label": labels(colours)[j] }, chip(ci)))));
      map.forEach((row, i) => grid.append($("div", { role: "row", class: "mrow" },
        $("span", { role: "rowheader", "aria-label": labels(colours)[i] }, chip(colours[i])),
        ...row.map(w => $("span", { role: "cell", style: cellStyle(w), text: share(w) })))));
      return grid;
    }
    const maps = $("div", { class: "stepsrow" });
    const caption = $("p", { class: "muted" });
    const views = { two: fill(W.heads_button, { heads: h.two.heads.length, d: h.two.d_head }),
                    four: fill(W.heads_button, { heads: h.four.heads.length, d: h.four.d_head }), causal: W.causal_run };
    const buttons = Object.entries(views).map(([key, text]) => $("button", { text, "aria-pressed": "false", "data-view": key,
                                                                             onclick: () => show(key) }));
    panel.append($("p", { text: W.heads_hint }), $("div", { class: "row" }, ...buttons),
      $("p", { class: "muted", text: W.map_axes }), maps, caption);
    function show(view) {
      buttons.forEach(b => b.setAttribute("aria-pressed", String(b.dataset.view === view)));
      if (view === "causal") {
        maps.replaceChildren($("figure", { class: "matbox" }, $("figcaption", { text: W.causal_run }),
                                       colourMap(h.causal.map, h.causal.colours, W.causal_run)));
        caption.textContent = W.causal_caption + " " + fill(W.validation, { mse: sci(h.causal.val_mse), baseline: fixed(h.causal.baseline_mse, 3) });
      } else {
        const run = h[view];
        maps.replaceChildren(...run.heads.map(head => $("figure", { class: "matbox" },
          $("figcaption", {}, $("b", { text: head.name }), " ", head.rules.length ? head.rules.join(" · ") : W.no_rule),
          colourMap(head.map, run.colours, head.name),
          $("p", { class: "muted", text: fill(W.heads_overlap, { c: fixed(head.colour_match), p: fixed(head.previous_match), min: fixed(h.rule_match, 1) }) }))));
        caption.textContent = fill(W.validation, { mse: sci(run.val_mse), baseline: fixed(run.baseline_mse, 3) });
      }
      panel.dataset.view = view;
    }
    show("two");
  });

  // The tabs in the lecture's order (lab.chapters lists the demos so)
  Object.keys(lab.chapters).forEach(name => {
    if (demos[name]) { tabs.append(demos[name].tab); panels.append(demos[name].panel); }
  });

  // A chapter with a demo opens it from its entry in the chapter list.
  document.querySelectorAll("#chapters li").forEach((li, k) => {
    const name = Object.keys(demos).find(d => demos[d].chapter === k);
    if (!name) return;
    li.append($("button", { class: "try", text: W.heading, onclick: e => {
      e.stopPropagation(); open(name); root.scrollIntoView({ block: "start" });
    } }));
  });
  open("office");
})();
