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
  function rowAt(q, k, i, t) {  // the pronoun's row at temperature t: softmax(q.k / (sqrt(d) t))
    const s = Math.sqrt(q[0].length) * t;
    return softmax(k.map(kj => dot(q[i], kj) / s));
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
  return { dot, matmul, transpose, softmax, attention, encode, colourMap, colourOutputs,
           colourTargets, selfShare, officeWeights, rowAt, shuffleRun, generator };
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
  const fill = (t, f) => t.replace(/\{(\w+)\}/g, (w, n) => (n in f ? f[n] : w));
  const fixed = (x, d = 2) => { const s = x.toFixed(d); return Number(s) === 0 ? (0).toFixed(d) : s; };
  const power = e => "10" + String(e).replace(/./g, ch => "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"["-0123456789".indexOf(ch)]);
  const sci = x => (x === 0 ? "0" : x.toExponential(1).replace(/e([+-]\d+)/, (m, p) => "×" + power(Number(p))));
  // A map's cell: grey from the page's dark (weight 0) to white (weight 1), its number in
  // black or white, whichever stands out more (WCAG contrast, at least 4.58:1 for any grey)
  const grey = w => Math.round(27 + Math.min(Math.max(w, 0), 1) * 228);
  const luminance = g => { const c = g / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  function cellStyle(w) {
    const g = grey(w), l = luminance(g);
    const ink = (1.05 / (l + 0.05)) > ((l + 0.05) / 0.05) ? "#fff" : "#000";
    return `background:rgb(${g},${g},${g});color:${ink}`;
  }
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
    const names = Object.keys(demos);
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
    const svg = S("svg", { viewBox: `0 0 ${size + margin} ${size}`, width: size + margin, height: size, class: "board" });
    const dots = o.keys.map(k => { const [cx, cy] = at(k); return S("circle", { cx, cy, r: 7, fill: lab.roles.key }); });
    const names = o.keys.map((k, i) => {
      const [x, y] = at(k); const t = S("text", { x: x + 10, y: y - 8, fill: "#ececec", "font-size": 12 });
      t.textContent = `${o.people[i]} · ${o.values[i]}`; return t;
    });
    const arrow = S("line", { x1: mid, y1: mid, stroke: lab.roles.query, "stroke-width": 4 });
    const head = S("circle", { r: 9, fill: lab.roles.query, tabindex: 0, role: "slider",
                               "aria-label": W.query_label, class: "handle",
                               "aria-valuemin": -3, "aria-valuemax": 3 });
    const clamp = v => Math.max(-3, Math.min(3, v));
    svg.append(...dots, ...names, arrow, head);
    const bars = $("div", { class: "bars" });
    const output = $("p", { class: "output" });
    panel.append($("p", { text: W.office_hint }), $("div", { class: "row" }, svg, $("div", {}, bars, output)));
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
    function toQuery(event) {
      const box = svg.getBoundingClientRect();
      const x = ((event.clientX - box.left) * (size + margin) / box.width - mid) / unit;
      const y = (mid - (event.clientY - box.top) * size / box.height) / unit;
      query = [clamp(x), clamp(y)];
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
  // A colour's chip (a map's row or column, a position in the strip): the position's fill,
  // its label in black or white, whichever stands out more on it (WCAG contrast)
  function chipStyle(hex) {
    const [r, g, b] = [1, 3, 5].map(i => luminance(parseInt(hex.slice(i, i + 2), 16)));
    const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    return `background:${hex};color:${(1.05 / (l + 0.05)) > ((l + 0.05) / 0.05) ? "#fff" : "#000"}`;
  }
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
    const chip = (role, ci, i) => $("span", { role, class: role, style: chipStyle(c.fills[ci]),
      text: c.labels[ci], "aria-label": fill(W.position, { k: i + 1, colour: c.names[ci] }) });
    const heads = () => $("div", { class: "maprow", role: "row" }, $("span", { class: "corner" }),
      ...colours.map((ci, i) => chip("columnheader", ci, i)));
    function drawMap() {
      strip.replaceChildren(...colours.map((ci, i) => $("button", {
        class: "cell", style: chipStyle(c.fills[ci]), text: c.labels[ci],
        "aria-label": fill(W.position, { k: i + 1, colour: c.names[ci] }),
        onclick: () => { colours[i] = (colours[i] + 1) % k; drawMap(); },
      })));
      const map = M.colourMap(weights, colours, values, k);
      grid.setAttribute("aria-label", whose.textContent);
      grid.replaceChildren(heads(), ...map.map((row, i) => $("div", { class: "maprow", role: "row" },
        chip("rowheader", colours[i], i),
        ...row.map(w => $("span", { role: "cell", style: cellStyle(w), text: share(w) })))));
      // Below the map, per position: its number, the right answer and the model's output,
      // each shaded from the sequence's smallest number (dark) to its largest (white)
      const targets = M.colourTargets(colours, values), outputs = M.colourOutputs(weights, colours, values, k);
      const low = Math.min(...values), high = Math.max(...values);
      const line = (label, xs) => $("div", { class: "maprow labelled", role: "row" },
        $("span", { role: "rowheader", class: "label", text: label }), $("span", { class: "corner" }),
        ...xs.map(x => $("span", { role: "cell", style: cellStyle((x - low) / (high - low)), text: share(x) })));
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
    const text = (content, attrs) => { const t = S("text", { fill: "#9aa0aa", "font-size": 12, ...attrs }); t.textContent = content; return t; };
    const parts = [S("path", { d: `M${left},${top}V${top + height}H${left + width}`, fill: "none", stroke: "#9aa0aa" })];
    for (let e = lo; e <= hi; e++) {  // decades
      parts.push(S("line", { x1: left - 4, x2: left, y1: y(e), y2: y(e), stroke: "#9aa0aa" }),
                 text(power(e), { x: left - 6, y: y(e) + 4, "text-anchor": "end", class: "decade" }));
    }
    const every = [1, 2, 2.5, 5, 10].map(m => m * 10 ** Math.floor(Math.log10(steps / 4)))
      .find(s => steps / s <= 4);
    for (let s = 0; s <= steps; s += every) {  // steps, four or five ticks
      parts.push(S("line", { x1: x(s), x2: x(s), y1: top + height, y2: top + height + 4, stroke: "#9aa0aa" }),
                 text(String(s), { x: x(s), y: top + height + 15, "text-anchor": "middle", class: "tick" }));
    }
    parts.push(text(W.step_axis, { x: left + width / 2, y: h - 4, "text-anchor": "middle", class: "title" }),
               text(W.loss_axis, { x: 4, y: 12, class: "title" }));
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
    const grid = $("div", { class: "map", role: "img", "aria-label": W.projection });
    const own = $("p", { "aria-live": "polite" });  // not "share": that formats the map's cells
    panel.append($("p", { text: W.projection_hint }),
      $("div", { class: "row" }, $("label", {}, toggle, " " + W.with_projection),
        $("button", { text: W.draw_again, onclick: () => { seed += 1; draw(); } })),
      grid, own,
      $("p", { class: "muted", text: fill(W.projection_summary, { draws: p.draws, plain: fixed(p.plain.mean), projected: fixed(p.projected.mean) }) }));
    toggle.addEventListener("change", () => { projected = toggle.checked; draw(); });
    function draw() {
      const g = M.generator(seed);
      const x = Array.from({ length: n }, () => Array.from({ length: width }, g.normal));
      const rand = () => Array.from({ length: width }, () => Array.from({ length: width }, () => g.normal() / Math.sqrt(width)));
      const wq = rand(), wk = rand();
      const eye = Array.from({ length: width }, (_, i) => Array.from({ length: width }, (_, j) => (i === j ? 1 : 0)));
      const map = projected ? M.attention(x, wq, wk, eye).weights : M.attention(x, eye, eye, eye).weights;
      grid.replaceChildren(...map.map(row => $("div", { class: "maprow" },
        ...row.map(w => $("span", { role: "cell", style: cellStyle(w), text: share(w) })))));
      own.textContent = fill(W.self_share, { share: fixed(M.selfShare(map)), uniform: fixed(p.uniform_share, 3) });
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
    const curve = S("svg", { viewBox: "0 0 300 100", width: 600, height: 200, class: "curve", role: "img",
                             "aria-label": fill(W.sqrt_d_curve, { draws: s.draws }) });
    const key = (text, dash) => $("span", { class: "key" + (dash ? " dashed" : ""), text });
    panel.append($("p", { text: W.sqrt_d_hint }), $("div", { class: "row" }, slider, label), bars,
      $("p", { class: "muted" }, fill(W.sqrt_d_curve, { draws: s.draws }) + ": ", key(W.unscaled, true), " ", key(W.scaled, false)),
      curve);
    const line = key => rows.map((r, i) => `${(i / (rows.length - 1)) * 290 + 5},${95 - r[key] * 90}`).join(" ");
    curve.append(S("polyline", { points: line("mean_max_unscaled"), fill: "none", stroke: "#9aa0aa", "stroke-dasharray": "4 3", "stroke-width": 2 }),
                 S("polyline", { points: line("mean_max_scaled"), fill: "none", stroke: "#ececec", "stroke-width": 2 }));
    const marker = S("line", { y1: 0, y2: 100, stroke: "#f2c94c" });
    const ends = [0, rows.length - 1].map(i => {
      const t = S("text", { x: i ? 295 : 5, y: 99, fill: "#9aa0aa", "font-size": 9, "text-anchor": i ? "end" : "start" });
      t.textContent = `d = ${rows[i].d}`;
      return t;
    });
    curve.append(marker, ...ends);
    function draw() {
      const r = rows[Number(slider.value)];
      label.textContent = fill(W.d_label, { d: r.d });
      slider.setAttribute("aria-valuetext", label.textContent);
      const unscaled = M.softmax(r.example_scores), scaled = M.softmax(r.example_scores.map(x => x / Math.sqrt(r.d)));
      const column = (title, ws) => $("div", { class: "bars" }, $("b", { text: title }),
        ...ws.map(w => $("div", { class: "bar" }, $("i", { style: `width:${w * 100}%` }), $("b", { text: fixed(w) }))));
      bars.replaceChildren(column(W.unscaled, unscaled), column(W.scaled, scaled));
      const x = (Number(slider.value) / (rows.length - 1)) * 290 + 5;
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
    const words = $("div", { class: "words" });
    const diff = $("p", { "aria-live": "polite" });
    panel.append($("p", { text: W.shuffle_hint }),
      $("div", { class: "row" }, $("button", { text: W.shuffle_button, onclick: () => { order = shuffled(order); draw(); } }),
        $("label", {}, toggle, " " + W.with_positions)), $("p", { class: "muted", text: W.outputs }), words, diff);
    toggle.addEventListener("change", () => { positions = toggle.checked; draw(); });
    let seed = 7;
    function shuffled(o) {
      const g = M.generator(seed++), a = o.slice();
      for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(g.uniform() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
      return a;
    }
    function draw() {
      const run = M.shuffleRun(s, order, positions);
      words.replaceChildren(...order.map((p, i) => $("div", { class: "word" }, $("b", { text: s.tokens[p] }),
        $("span", { text: run.out_of_shuffled[i].map(v => fixed(v)).join(" ") }))));
      diff.textContent = fill(W.shuffle_diff, { diff: sci(run.max_abs_diff) });
      panel.dataset.diff = String(run.max_abs_diff);
    }
    draw();
  });

  // --- 6. it -> cat: click a row, turn T, hover the formula ------------------------------
  demo("it_cat", panel => {
    const c = lab.it_cat;
    let row = c.query, t = 1;
    const slider = $("input", { type: "range", min: 0.1, max: 5, step: 0.05, value: 1, "aria-label": "T" });
    const label = $("output", {});
    const formula = $("p", { class: "formula" },
      $("span", { "data-part": "weights", text: "softmax(" }), $("span", { "data-part": "q", text: "q" }),
      $("span", { text: "·" }), $("span", { "data-part": "k", text: "k" }), $("span", { text: " / (" }),
      $("span", { "data-part": "d", text: "√d" }), $("span", { text: " · " }), $("span", { "data-part": "t", text: "T" }),
      $("span", { "data-part": "weights", text: "))" }));
    const table = $("div", { class: "tokens", role: "listbox", "aria-label": W.it_cat });
    const sum = $("p", {});
    panel.append($("p", { text: W.it_cat_hint }), formula, $("div", { class: "row" }, slider, label), table, sum);
    slider.addEventListener("input", () => { t = Number(slider.value); draw(); });
    formula.querySelectorAll("[data-part]").forEach(part => {  // hovered, or reached by Tab
      part.tabIndex = 0;
      const on = () => panel.classList.add(`lit-${part.dataset.part}`);
      const off = () => panel.classList.remove(`lit-${part.dataset.part}`);
      for (const [kind, act] of [["mouseenter", on], ["focus", on], ["mouseleave", off], ["blur", off]]) {
        part.addEventListener(kind, act);
      }
    });
    function draw() {
      label.textContent = fill(W.t_label, { t: fixed(t) });
      const weights = M.rowAt(c.q, c.k, row, t);
      table.replaceChildren(...c.tokens.map((tok, j) => $("div", {
        class: "bar" + (j === row ? " looking" : ""), role: "option", tabindex: 0, "aria-selected": String(j === row),
        onclick: () => { row = j; draw(); },
        onkeydown: e => { if (e.key === "Enter" || e.key === " ") { row = j; draw(); e.preventDefault(); } },
      }, $("span", { class: "q", text: tok }), $("i", { class: "weights", style: `width:${weights[j] * 100}%` }),
         $("b", { class: "k", text: fixed(weights[j]) }))));
      sum.textContent = fill(W.row_sum, { sum: fixed(weights.reduce((s, w) => s + w, 0)) });
      panel.dataset.row = JSON.stringify(weights);
    }
    draw();
  });

  // --- 7. the quiz: answered at once ----------------------------------------------------
  demo("quiz", panel => {
    lab.quiz.forEach((q, k) => {
      const verdict = $("p", { "aria-live": "polite", class: "verdict" });
      const choices = $("div", { class: "row", role: "group", "aria-label": q.question },
        ...q.choices.map((text, j) => $("button", { text, onclick: () => {
          const right = j === q.right;
          verdict.textContent = (right ? W.right : W.wrong) + " " + (right ? q.answer : "");
          verdict.className = "verdict " + (right ? "right" : "wrong");
        } })));
      panel.append($("h3", { text: `${k + 1}. ${q.question}` }), choices, verdict);
    });
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
