// Small inline-SVG charts (no library, nothing from outside): a line chart
// with an optional uncertainty band, and a bar chart; `chartInWords` is the
// same figures as text, for a screen reader and a keyboard.
import { el } from "./api.js";

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function niceRange(values) {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) { lo -= 1; hi += 1; }
  const pad = (hi - lo) * 0.08;
  return [lo - pad, hi + pad];
}

// points: [{y, low?, high?, label?}] in order. Returns an <svg>.
// `fontSize` is in the drawing's units: drawn as wide as its box on a phone
// (one unit a pixel), 12 keeps the text at 12 px there.
export function lineChart(points, { title = "chart", width = 640, height = 220, yLabel = "", fontSize = 11 } = {}) {
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": title, style: `font-size:${fontSize}px` });
  root.append(svg("title", {}, title));
  if (!points.length) return root;
  const left = Math.round(fontSize * 4); const right = 12; const top = 12; const bottom = Math.round(fontSize * 2.4);
  const all = points.flatMap((p) => [p.y, p.low ?? p.y, p.high ?? p.y]);
  const [lo, hi] = niceRange(all);
  const x = (i) => left + (points.length === 1 ? (width - left - right) / 2 : (i * (width - left - right)) / (points.length - 1));
  const y = (v) => top + ((hi - v) * (height - top - bottom)) / (hi - lo);
  root.append(svg("line", { x1: left, y1: top, x2: left, y2: height - bottom, class: "axis" }));
  root.append(svg("line", { x1: left, y1: height - bottom, x2: width - right, y2: height - bottom, class: "axis" }));
  for (let k = 0; k <= 4; k += 1) {
    const v = lo + ((hi - lo) * k) / 4;
    root.append(svg("text", { x: left - 6, y: y(v) + fontSize * 0.36, "text-anchor": "end" }, v.toFixed(1)));
  }
  if (points.length === 1 && points[0].low !== undefined) {
    // One point: its band is a bar from low to high.
    const [p] = points;
    root.append(svg("rect", { x: x(0) - 6, y: y(p.high), width: 12, height: Math.max(1, y(p.low) - y(p.high)), class: "band" }));
  } else if (points.some((p) => p.low !== undefined)) {
    const upper = points.map((p, i) => `${x(i)},${y(p.high)}`);
    const lower = points.map((p, i) => `${x(i)},${y(p.low)}`).reverse();
    root.append(svg("polygon", { points: [...upper, ...lower].join(" "), class: "band" }));
  }
  root.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.y)}`).join(" "), class: "line" }));
  points.forEach((p, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(p.y), r: 3.5, class: "dot" });
    dot.append(svg("title", {}, p.label || p.y.toFixed(2)));
    root.append(dot);
  });
  if (points.length === 1) {
    root.append(svg("text", { x: x(0), y: height - 6, "text-anchor": "middle" }, points[0].axis || "first"));
  } else {
    root.append(svg("text", { x: left, y: height - 6 }, points[0].axis || "first"));
    root.append(svg("text", { x: width - right, y: height - 6, "text-anchor": "end" }, points[points.length - 1].axis || "latest"));
  }
  if (yLabel) root.append(svg("text", { x: left + 6, y: top + fontSize * 0.9 }, yLabel));
  return root;
}

// bars: [{label, value}]. Returns an <svg>. A narrow chart (under 480
// units, a phone's) puts each label on a line of its own above its bar: beside
// the bars, a long label ("Konec with the lowest hand") left the bars no room.
export function barChart(bars, { title = "chart", width = 640, barHeight = 22, fontSize = 11 } = {}) {
  const stacked = width < 480;
  const bar = stacked ? Math.round(fontSize * 1.3) : barHeight;
  const step = stacked ? bar + fontSize * 1.6 + 8 : barHeight + 6;
  const height = Math.ceil(10 + bars.length * step);
  const root = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: `chart bars${stacked ? " stacked" : ""}`,
    role: "img", "aria-label": title, style: `font-size:${fontSize}px`,
  });
  root.append(svg("title", {}, title));
  const max = Math.max(1, ...bars.map((b) => b.value));
  // Beside the bars, the labels' column fits the longest label (about 0.58 of
  // the font size a character): a fixed 150 cut "Konec with the lowest hand"
  // at its start.
  const longest = Math.max(0, ...bars.map((b) => String(b.label).length));
  const left = stacked ? 0 : Math.min(Math.round(width * 0.55), Math.max(150, Math.ceil(longest * fontSize * 0.58) + 14));
  const valueRoom = Math.ceil(fontSize * 5);
  bars.forEach((item, i) => {
    const top = 6 + i * step;
    const yPos = stacked ? top + fontSize * 1.6 : top;
    if (stacked) root.append(svg("text", { x: 0, y: top + fontSize }, item.label));
    else root.append(svg("text", { x: left - 8, y: yPos + barHeight * 0.7, "text-anchor": "end" }, item.label));
    const w = Math.max(1, ((width - left - valueRoom) * item.value) / max);
    root.append(svg("rect", { x: left, y: yPos, width: w, height: bar, rx: 3, class: "bar" }));
    root.append(svg("text", { x: left + w + 6, y: yPos + bar / 2 + fontSize * 0.36 }, String(Math.round(item.value * 100) / 100)));
  });
  return root;
}

// A chart's figures in words, under it: a picture's name alone ("alkort
// rating history of ada") told a screen reader nothing of the ratings, and a
// point's figures were only in its tooltip, which a pointer shows and a
// keyboard never reaches. A fold, closed at first, so the chart looks as it
// did; each line one point or bar, in the chart's order.
export function chartInWords(lines, { id } = {}) {
  return el("details", { class: "chart-words", id },
    el("summary", {}, `The chart in words (${lines.length} ${lines.length === 1 ? "line" : "lines"})`),
    el("ol", {}, lines.map((line) => el("li", {}, line))));
}
