// Small inline-SVG charts (no library, nothing from outside): a line chart
// with an optional uncertainty band, and a bar chart.
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
export function lineChart(points, { title = "chart", width = 640, height = 220, yLabel = "" } = {}) {
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": title });
  root.append(svg("title", {}, title));
  if (!points.length) return root;
  const left = 44; const right = 12; const top = 12; const bottom = 26;
  const all = points.flatMap((p) => [p.y, p.low ?? p.y, p.high ?? p.y]);
  const [lo, hi] = niceRange(all);
  const x = (i) => left + (points.length === 1 ? (width - left - right) / 2 : (i * (width - left - right)) / (points.length - 1));
  const y = (v) => top + ((hi - v) * (height - top - bottom)) / (hi - lo);
  root.append(svg("line", { x1: left, y1: top, x2: left, y2: height - bottom, class: "axis" }));
  root.append(svg("line", { x1: left, y1: height - bottom, x2: width - right, y2: height - bottom, class: "axis" }));
  for (let k = 0; k <= 4; k += 1) {
    const v = lo + ((hi - lo) * k) / 4;
    root.append(svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end" }, v.toFixed(1)));
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
  if (yLabel) root.append(svg("text", { x: left + 6, y: top + 10 }, yLabel));
  return root;
}

// bars: [{label, value}]. Returns an <svg>.
export function barChart(bars, { title = "chart", width = 640, barHeight = 22 } = {}) {
  const height = 10 + bars.length * (barHeight + 6);
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": title });
  root.append(svg("title", {}, title));
  const max = Math.max(1, ...bars.map((b) => b.value));
  // The labels' column fits the longest label (11px text, about 6.4 units a
  // character): a fixed 150 cut "Konec with the lowest hand" at its start.
  const longest = Math.max(0, ...bars.map((b) => String(b.label).length));
  const left = Math.min(Math.round(width * 0.55), Math.max(150, Math.ceil(longest * 6.4) + 14));
  bars.forEach((bar, i) => {
    const yPos = 6 + i * (barHeight + 6);
    root.append(svg("text", { x: left - 8, y: yPos + barHeight * 0.7, "text-anchor": "end" }, bar.label));
    const w = Math.max(1, ((width - left - 60) * bar.value) / max);
    root.append(svg("rect", { x: left, y: yPos, width: w, height: barHeight, rx: 3, class: "bar" }));
    root.append(svg("text", { x: left + w + 6, y: yPos + barHeight * 0.7 }, String(Math.round(bar.value * 100) / 100)));
  });
  return root;
}
