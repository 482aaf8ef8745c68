// The replay of a finished match: step forward and back, jump with the
// slider, watch from any seat or with every card open, and the fairness check
// (the revealed seed, its published SHA-256 — re-hashed here in the browser —
// and every deal re-derived by the server from that seed).
import { api, el, games } from "./api.js";
import { marked, withNames } from "./games/common.js";
import { renderers } from "./games/index.js";

const root = document.getElementById("replay-page");
const tableId = Number(root.dataset.table);
const renderer = renderers[root.dataset.game];
const board = document.getElementById("board");
const slider = document.getElementById("slider");
const stepText = document.getElementById("step-text");
const logList = document.getElementById("log");
const errorBox = document.getElementById("replay-error");
const viewpoint = document.getElementById("viewpoint");
let table = null;
let frames = [];
let index = 0;
let timer = null;
let catalogue = null;

function names(seat) {
  if (seat === null || seat === undefined) return "nobody";
  const info = table.seats[seat];
  if (!info || !info.username) return `seat ${seat + 1}`;
  return info.is_bot ? `${info.bot_level} bot ${seat + 1}` : info.username;
}

function context(frame) {
  const seat = viewpoint.value === "all" ? null : Number(viewpoint.value);
  const game = catalogue && catalogue[table.game];
  const czech = game && Number(frame.view.options && frame.view.options.deck) === 32 ? game.card_names : null;
  return {
    view: frame.view, legal: [], seat, table, players: table.players, names,
    act: () => {}, redraw: () => show(index), seq: frame.seq,
    events: frames.slice(0, index + 1).map((f) => f.event), czech, busy: false,
  };
}

function show(at) {
  if (!frames.length) return;
  index = Math.max(0, Math.min(frames.length - 1, at));
  slider.value = String(index);
  slider.setAttribute("aria-valuetext", `Step ${index + 1} of ${frames.length}`);
  const frame = frames[index];
  const ctx = context(frame);
  board.replaceChildren(renderer.board(ctx));
  if (frame.view.face_down && frame.view.face_down.length) {
    board.append(el("p", { class: "hint" }, "All cards open: cards drawn faded with dashed edges were still face down at this point."));
  }
  // Names cut as in the table's turn bar and log (withNames): a 150-character
  // one took five lines of the step's line on a phone.
  const line = renderer.describe(frame.event, marked(ctx))
    || frame.event.type.split(".").pop().replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
  // One span: the bar is a flex box, which set each piece of text apart.
  stepText.replaceChildren(el("span", {}, withNames(`Step ${index + 1} of ${frames.length}: ${line}`)));
  // The step shown is marked for a screen reader too (it was a tint only).
  for (const item of logList.children) {
    const current = Number(item.dataset.index) === index;
    item.classList.toggle("current", current);
    const button = item.querySelector("button");
    if (current) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
  const current = logList.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
  const summary = renderer.summary(ctx);
  document.getElementById("summary").hidden = !summary;
  if (summary) document.getElementById("summary-body").replaceChildren(summary);
  const active = document.activeElement;
  document.getElementById("back").disabled = index === 0;
  document.getElementById("first").disabled = index === 0;
  document.getElementById("forward").disabled = index === frames.length - 1;
  document.getElementById("last").disabled = index === frames.length - 1;
  // A button pressed to the end of the match (or its start) is disabled
  // under the keyboard: focus goes to the slider beside it (whose arrow keys
  // step on), not to the top of the page.
  if (active && active.disabled) slider.focus();
}

function buildLog() {
  const ctx = marked(context(frames[frames.length - 1]));
  logList.replaceChildren(...frames.map((frame, i) => {
    const text = renderer.describe(frame.event, ctx);
    if (!text) return null;
    return el("li", { dataset: { index: i } },
      el("button", { type: "button", class: "link-button", onclick: () => show(i) }, withNames(text)));
  }).filter(Boolean));
}

async function loadFrames() {
  const seat = viewpoint.value;
  const data = await api(`/tables/${tableId}/replay/frames/?seat=${seat}`);
  const at = frames.length ? frames[index].seq : null;
  frames = data.frames;
  slider.max = String(Math.max(0, frames.length - 1));
  buildLog();
  const again = at === null ? frames.length - 1 : frames.findIndex((f) => f.seq === at);
  show(again < 0 ? 0 : again);
}

async function sha256(text) {
  if (!(window.crypto && crypto.subtle)) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest)).map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function fairness() {
  const box = document.getElementById("fairness");
  try {
    const report = await api(`/api/tables/${tableId}/verify/`);
    const local = await sha256(report.seed);
    const hashOk = local === null ? null : local === report.seed_sha256;
    const ok = report.ok && hashOk !== false;
    box.replaceChildren(
      el("p", { class: `verdict ${ok ? "ok" : "bad"}`, id: "verdict" },
        ok ? "✔ Fair: every deal follows from the published seed." : "✘ The check failed."),
      el("dl", { class: "fair-facts" },
        el("dt", {}, "Seed (revealed at the end)"), el("dd", {}, el("code", { id: "seed" }, report.seed)),
        el("dt", {}, "SHA-256 published at the start"), el("dd", {}, el("code", { id: "seed-hash" }, report.seed_sha256)),
        el("dt", {}, "Hash of the seed, computed in your browser"),
        el("dd", {}, local === null ? "not available on this connection" : el("span", { id: "hash-check" }, hashOk ? "matches" : "does not match")),
        el("dt", {}, "Shuffles re-derived by the server"), el("dd", { id: "checked" }, `${report.checked}, ${report.ok ? "all equal to the recorded deals" : "with problems"}`)),
      ...(report.problems.length ? [el("ul", {}, report.problems.map((p) => el("li", {}, p)))] : []));
  } catch (err) {
    box.replaceChildren(el("p", { class: "muted" }, err.message));
  }
}

function stop() {
  clearInterval(timer);
  timer = null;
  stepText.setAttribute("aria-live", "polite");
  document.getElementById("play").textContent = "Play";
}

document.getElementById("first").addEventListener("click", () => { stop(); show(0); });
document.getElementById("back").addEventListener("click", () => { stop(); show(index - 1); });
document.getElementById("forward").addEventListener("click", () => { stop(); show(index + 1); });
document.getElementById("last").addEventListener("click", () => { stop(); show(frames.length - 1); });
slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
document.getElementById("play").addEventListener("click", (event) => {
  if (timer) return stop();
  if (index >= frames.length - 1) show(0);
  event.target.textContent = "Pause";
  // Playing reads nothing step by step (it would never stop talking); the
  // step it pauses on is read when the next one is chosen.
  stepText.setAttribute("aria-live", "off");
  timer = setInterval(() => {
    if (index >= frames.length - 1) return stop();
    show(index + 1);
  }, 700);
});
viewpoint.addEventListener("change", () => loadFrames().catch((err) => {
  errorBox.textContent = err.message;
  errorBox.hidden = false;
}));
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea") && event.target !== slider) return;
  if (event.key === "ArrowLeft") { stop(); show(index - 1); event.preventDefault(); }
  if (event.key === "ArrowRight") { stop(); show(index + 1); event.preventDefault(); }
  if (event.key === "Home") { stop(); show(0); event.preventDefault(); }
  if (event.key === "End") { stop(); show(frames.length - 1); event.preventDefault(); }
});

(async () => {
  try {
    [table, catalogue] = await Promise.all([api(`/api/tables/${tableId}/`), games().catch(() => null)]);
    for (const seat of table.seats) {
      viewpoint.append(el("option", { value: seat.seat }, `${names(seat.seat)}'s view`));
    }
    if (table.status !== "finished") {
      stepText.textContent = "This match is still being played: its replay opens when it ends.";
      document.getElementById("fairness").replaceChildren(el("p", { class: "muted" },
        "The seed stays secret until the end; its SHA-256 is published: ", el("code", {}, table.seed_sha256 || "—")));
      return;
    }
    document.getElementById("replay-bar").hidden = false;
    await Promise.all([loadFrames(), fairness()]);
  } catch (err) {
    errorBox.textContent = err.message;
    errorBox.hidden = false;
  }
})();
