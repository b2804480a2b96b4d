// chunkviz similarity plane: chunk vectors as arrows from the origin, a draggable query point,
// and the top-k under dot product, cosine and L2 recomputed live while dragging.
// Data (from Python): {points: [{label, x, y}], query: {x, y}, k, extent, measures: [{id, name}],
//                      text: {query, top, drag_hint}}
// State (to Python): pos = {x, y, seq} when the query is released; Python echoes seq as data.seq.
// Everything is built with DOM calls and textContent: point labels are user text.

const SVG_NS = "http://www.w3.org/2000/svg";
const MEASURE_IDS = ["dot", "cosine", "l2"];
const BADGE = { dot: "D", cosine: "C", l2: "L" };

function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, attrs, parent, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// Same definitions as chunkviz.retrieval.similarity: higher is better for every measure.
function score(measure, q, p) {
  const dot = q.x * p.x + q.y * p.y;
  if (measure === "dot") return dot;
  if (measure === "cosine") {
    const n = Math.hypot(q.x, q.y) * Math.hypot(p.x, p.y);
    return n === 0 ? 0 : dot / n;
  }
  return -Math.hypot(q.x - p.x, q.y - p.y);
}

// Indices from best to worst; ties keep the lower index first (numpy's stable argsort).
function ranking(measure, q, points) {
  const s = points.map((p) => score(measure, q, p));
  return points.map((_, i) => i).sort((a, b) => (s[b] - s[a]) || (a - b));
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const root = parentElement.querySelector(".cv-plane");
  if (!root || !data) return undefined;
  // A rerun rebuilds the drawing; keep keyboard focus on the query point if it had it.
  const active = parentElement.activeElement;
  const hadFocus = Boolean(active && active.getAttribute && active.getAttribute("data-role") === "query");
  root.replaceChildren();

  const E = data.extent;
  const points = data.points;
  const k = Math.min(data.k, points.length);
  const names = Object.fromEntries(data.measures.map((m) => [m.id, m.name]));
  // Positions sent to Python carry a sequence number that Python echoes back as data.seq. A
  // rerun that answers an older send (the user moved on meanwhile) must not pull the point back.
  const sent = parentElement.__cvSent || { seq: data.seq || 0, x: data.query.x, y: data.query.y };
  const behind = (data.seq || 0) < sent.seq;
  // A move made but not yet sent (a key pressed and not yet released, a drag under way) when a
  // rerun rebuilds the drawing is kept and sent at once: it is neither lost nor left pending.
  const moving = parentElement.__cvMoving;
  const from = moving || (behind ? sent : data.query);
  const query = { x: from.x, y: from.y };
  function moved() {
    parentElement.__cvMoving = { x: query.x, y: query.y };
  }
  function send() {
    const round = (v) => Math.round(v * 1000) / 1000;
    const pos = { x: round(query.x), y: round(query.y), seq: sent.seq + 1 };
    parentElement.__cvSent = { seq: pos.seq, x: query.x, y: query.y };
    parentElement.__cvMoving = null;
    Object.assign(sent, parentElement.__cvSent);
    setStateValue("pos", pos);
  }
  if (moving) setTimeout(send, 0);

  // A margin around the plane keeps labels and badges of points near the edge visible; the
  // plane itself is the rect[data-role=plane] (tests convert coordinates with its box).
  const P = 0.7;
  const svg = el("svg", {
    viewBox: `${-E - P} ${-E - P} ${2 * (E + P)} ${2 * (E + P)}`,
    class: "cv-svg",
    "data-testid": "cv-plane-svg",
    role: "img",
  }, root);
  const defs = el("defs", {}, svg);
  const marker = el("marker", {
    id: "cv-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5,
    markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse",
  }, defs);
  el("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "cv-arrowhead" }, marker);

  el("rect", { x: -E, y: -E, width: 2 * E, height: 2 * E, class: "cv-bg", "data-role": "plane" }, svg);
  for (let r = 1; r <= E; r += 1) el("circle", { cx: 0, cy: 0, r, class: "cv-ring" }, svg);
  el("line", { x1: -E, y1: 0, x2: E, y2: 0, class: "cv-axis" }, svg);
  el("line", { x1: 0, y1: -E, x2: 0, y2: E, class: "cv-axis" }, svg);

  const rows = points.map((p, i) => {
    const g = el("g", { class: "cv-chunk", "data-label": p.label, "data-index": i }, svg);
    el("line", { x1: 0, y1: 0, x2: p.x, y2: -p.y, class: "cv-vec", "marker-end": "url(#cv-arrow)" }, g);
    el("circle", { cx: p.x, cy: -p.y, r: 0.09, class: "cv-tip" }, g);
    const len = Math.hypot(p.x, p.y) || 1;
    const ux = p.x / len, uy = -p.y / len;
    const lx = p.x + ux * 0.35, ly = -p.y + uy * 0.35;
    const label = el("text", { x: lx, y: ly, class: "cv-label", "text-anchor": "middle", "dominant-baseline": "middle" }, g);
    label.textContent = p.label;
    const badges = {};
    MEASURE_IDS.forEach((m, j) => {
      const b = el("g", { class: `cv-badge cv-${m}`, "data-measure": m, transform: `translate(${lx + 0.28 + j * 0.5} ${ly - 0.3})` }, g);
      el("rect", { x: 0, y: -0.2, width: 0.46, height: 0.4, rx: 0.08 }, b);
      const t = el("text", { x: 0.23, y: 0.01, "text-anchor": "middle", "dominant-baseline": "middle" }, b);
      badges[m] = { g: b, t };
    });
    return { g, badges };
  });

  el("line", { x1: 0, y1: 0, x2: query.x, y2: -query.y, class: "cv-qline" }, svg);
  const qline = svg.lastChild;
  const handle = el("circle", {
    cx: query.x, cy: -query.y, r: 0.22, class: "cv-query", "data-role": "query", tabindex: 0,
    "aria-label": data.text.query,
  }, svg);
  const qtitle = el("title", {}, handle);
  qtitle.textContent = data.text.query;

  const side = html("div", { class: "cv-side" }, root);
  html("div", { class: "cv-qpos", "data-role": "query-pos" }, side);
  const table = html("table", { class: "cv-top", "data-role": "topk" }, side);
  const head = html("tr", {}, table);
  html("th", {}, head, "");
  for (let r = 1; r <= k; r += 1) html("th", {}, head, `${data.text.top} ${r}`);
  const cells = {};
  for (const m of MEASURE_IDS) {
    const tr = html("tr", { class: `cv-${m}` }, table);
    html("th", { class: "cv-mname" }, tr, names[m]);
    cells[m] = [];
    for (let r = 1; r <= k; r += 1) {
      cells[m].push(html("td", { "data-measure": m, "data-rank": r, "data-testid": `cv-top-${m}-${r}` }, tr));
    }
  }
  html("p", { class: "cv-hint" }, side, data.text.drag_hint);

  function render() {
    handle.setAttribute("cx", query.x);
    handle.setAttribute("cy", -query.y);
    qline.setAttribute("x2", query.x);
    qline.setAttribute("y2", -query.y);
    side.querySelector(".cv-qpos").textContent =
      `${data.text.query}: (${query.x.toFixed(2)}, ${query.y.toFixed(2)})`;
    for (const m of MEASURE_IDS) {
      const order = ranking(m, query, points);
      const rankOf = new Array(points.length);
      order.forEach((idx, r) => { rankOf[idx] = r + 1; });
      rows.forEach((row, i) => {
        const b = row.badges[m];
        const shown = rankOf[i] <= k;
        b.g.style.display = shown ? "" : "none";
        b.g.setAttribute("data-rank", shown ? rankOf[i] : "");
        b.t.textContent = `${BADGE[m]}${rankOf[i]}`;
      });
      cells[m].forEach((td, r) => { td.textContent = points[order[r]].label; });
    }
    rows.forEach((row, i) => {
      const top1 = MEASURE_IDS.filter((m) => row.badges[m].g.getAttribute("data-rank") === "1");
      row.g.setAttribute("data-top1", top1.join(" "));
    });
  }

  function toPlane(evt) {
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    const clamp = (v) => Math.max(-E, Math.min(E, v));
    return { x: clamp(p.x), y: clamp(-p.y) };
  }

  let dragging = false;
  function onDown(evt) {
    if (evt.button !== undefined && evt.button !== 0) return;
    dragging = true;
    svg.setPointerCapture(evt.pointerId);
    Object.assign(query, toPlane(evt));
    moved();
    handle.classList.add("cv-dragging");
    render();
    evt.preventDefault();
  }
  function onMove(evt) {
    if (!dragging) return;
    Object.assign(query, toPlane(evt));
    moved();
    render();
    evt.preventDefault();
  }
  function onUp(evt) {
    if (!dragging) return;
    dragging = false;
    Object.assign(query, toPlane(evt));
    handle.classList.remove("cv-dragging");
    render();
    send();
  }
  // Keyboard: arrow keys move the focused query by 0.1 (0.5 with Shift); releasing the key
  // sends the position, as releasing the pointer does.
  const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  function onKeyDown(evt) {
    const step = STEPS[evt.key];
    if (!step) return;
    const d = evt.shiftKey ? 0.5 : 0.1;
    query.x = Math.max(-E, Math.min(E, query.x + step[0] * d));
    query.y = Math.max(-E, Math.min(E, query.y + step[1] * d));
    moved();
    render();
    evt.preventDefault();
  }
  function onKeyUp(evt) {
    if (!STEPS[evt.key]) return;
    send();
  }
  handle.addEventListener("keydown", onKeyDown);
  handle.addEventListener("keyup", onKeyUp);

  // Pointer events cover mouse, pen and touch; touch-action: none (CSS) stops scrolling.
  svg.addEventListener("pointerdown", onDown);
  svg.addEventListener("pointermove", onMove);
  svg.addEventListener("pointerup", onUp);
  svg.addEventListener("pointercancel", onUp);

  render();
  if (hadFocus) handle.focus();
  return () => {
    handle.removeEventListener("keydown", onKeyDown);
    handle.removeEventListener("keyup", onKeyUp);
    svg.removeEventListener("pointerdown", onDown);
    svg.removeEventListener("pointermove", onMove);
    svg.removeEventListener("pointerup", onUp);
    svg.removeEventListener("pointercancel", onUp);
  };
}
