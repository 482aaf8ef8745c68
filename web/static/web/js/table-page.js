// The live table page: wires the TableClient (state machine) to the game's
// renderer (js/games/<game>.js) and draws the parts every game shares — turn
// bar and timer, seats with presence, refusals, the log in words, the lobby
// controls, the end-of-deal summary and the final result.
import { currentUser, el, games, showError } from "./api.js";
import { openTable } from "./open-table.js";
import { spokenCards } from "./cards.js";
import { TableClient } from "./table-client.js";
import { markName, marked, seatLabel, withNames } from "./games/common.js";
import { renderers } from "./games/index.js";

const root = document.getElementById("table-page");
const tableId = Number(root.dataset.table);
const renderer = renderers[root.dataset.game];
const client = new TableClient(tableId);
const board = document.getElementById("board");
const refusal = document.getElementById("refusal");
const logList = document.getElementById("log");
let catalogue = null;
let busy = false;
let sending = false; // a move on its way for longer than SLOW_MS: the turn bar says so
let slowTimer = null;
let resultShown = false;
let refusalTimer = null;
let deadlineTimer = null;
let announcing = false; // off while the backlog of a (re)opened page is drawn
let wasMyTurn = false;
let lobbyLine = null; // the turn bar's last lobby line: a change is read out
let heard = [];
let heardTimer = null;
const announcer = document.getElementById("announcer");
const pageTitle = document.title;
// At most this many moves are read out at once; the rest are in the log.
const HEARD_MAX = 4;
// A move unanswered this long is said to be on its way (a slow network).
const SLOW_MS = 600;

if (root.dataset.live !== "1") {
  // No WebSocket route on this server: stay on REST polling from the start.
  client.connect = () => client.fallBack();
}

function seatName(seat) {
  if (seat === null || seat === undefined) return "nobody";
  const info = client.table && client.table.seats[seat];
  if (!info || !info.username) return `seat ${seat + 1}`;
  if (client.table.seat === seat) return `${info.username} (you)`;
  // Several house bots may share one account: tell them apart by seat.
  return info.is_bot ? `${info.bot_level} bot ${seat + 1}` : info.username;
}

// Tell a screen reader what happened, in words (cards by name): the lines of
// one burst of moves are gathered and read together, so a deal of bot moves
// is one announcement, not one each, and the oldest of a long burst are only
// counted.
function announce(...lines) {
  if (!announcing) return;
  heard.push(...lines.filter(Boolean).map(spokenCards));
  clearTimeout(heardTimer);
  heardTimer = setTimeout(sayHeard, 300);
}

function sayHeard() {
  clearTimeout(heardTimer);
  const skipped = heard.length - HEARD_MAX + 1;
  const said = heard.length > HEARD_MAX
    ? [`${skipped} earlier moves are in the log.`, ...heard.slice(-(HEARD_MAX - 1))]
    : heard;
  heard = [];
  if (said.length) announcer.replaceChildren(el("p", {}, said.join(" ")));
}

// A message goes after 8 s, or stays (`stay`) until the person's next move,
// Escape or another message replaces it.
function showRefusal(message, { stay = false } = {}) {
  clearTimeout(refusalTimer);
  refusal.textContent = message || "";
  refusal.hidden = !message;
  if (message && !stay) refusalTimer = setTimeout(() => { refusal.hidden = true; }, 8000);
}

// What a refusal says to a person: a stale view is the table moving on
// between the press and its arrival, not something to fetch by hand.
function refusalText(err) {
  if (err.code === "stale") return "The table moved on before your move arrived: here it is now, choose again.";
  // A move whose fate stayed unknown: the same move pressed again goes as the
  // same command (table-client.js, `unsettled`), so it is played once at most.
  if (err.code === "offline") return "The server cannot be reached, so your move may not have arrived: play it again when you are back online (it counts once).";
  return err.message;
}

async function act(action) {
  if (busy) return;
  busy = true;
  board.classList.add("busy");
  // The move buttons are off until the answer (a second press would be
  // refused anyway), and a slow answer is said in the turn bar: on a slow
  // network the board only dimmed and still said "Your turn".
  slowTimer = setTimeout(() => {
    sending = true;
    render();
  }, SLOW_MS);
  render();
  const sameDecision = renderer.sameDecision
    ? (before, now) => renderer.sameDecision(before, now, client.table.seat)
    : null;
  try {
    await client.act(action, sameDecision);
    showRefusal("");
  } catch (err) {
    showRefusal(refusalText(err));
  } finally {
    clearTimeout(slowTimer);
    busy = false;
    sending = false;
    board.classList.remove("busy");
    render();
    // The player's own move is confirmed at once, apart from what follows.
    sayHeard();
  }
}

function context() {
  const game = catalogue ? catalogue[client.table.game] : null;
  const options = (client.view && client.view.options) || client.table.options || {};
  const czech = game && game.card_names && Number(options.deck) === 32 ? game.card_names : null;
  return {
    view: client.view,
    legal: client.legal,
    seat: client.table.seat,
    table: client.table,
    players: client.table.players,
    names: seatName,
    act,
    redraw: () => render(),
    seq: client.seq,
    events: client.events,
    czech,
    busy,
    deadline: client.deadline,
  };
}

// --- the parts ---------------------------------------------------------------

function renderSeats(ctx) {
  const list = document.getElementById("seats");
  const toAct = new Set((ctx.view && ctx.view.to_act) || []);
  const presence = {};
  for (const entry of client.presence || []) presence[entry.seat] = entry;
  list.replaceChildren(...ctx.table.seats.map((seat) => {
    const info = presence[seat.seat];
    let dot = null;
    if (seat.is_bot) dot = el("span", { class: "dot bot", title: `house bot, level ${seat.bot_level}` }, "bot");
    else if (info && seat.username) {
      const state = !info.connected ? "offline" : info.away ? "away" : "online";
      dot = el("span", { class: `dot ${state}`, title: state, role: "img", "aria-label": state });
    }
    const name = seat.username
      ? (seat.is_bot ? seatLabel(seatName(seat.seat)) : seatLabel(seat.username, "a", { href: `/players/${seat.username}/` }))
      : el("span", { class: "muted" }, "open seat");
    // A person whose clock ran out: the moves made for them look like their own
    // in the log, so say it here.
    let late = null;
    if (info && !seat.is_bot && seat.username && (info.away || info.timeouts > 0)) {
      late = el("span", { class: "tag warn timeouts" }, info.away
        ? "away: a bot plays"
        : `timed out${info.timeouts > 1 ? ` ×${info.timeouts}` : ""}`);
    }
    return el("li", {
      class: `seat-item${toAct.has(seat.seat) ? " to-act" : ""}${ctx.seat === seat.seat ? " mine" : ""}`,
      dataset: { seat: seat.seat },
    },
    el("span", { class: "seat-no" }, String(seat.seat + 1)),
    dot, name, ctx.seat === seat.seat ? el("span", { class: "you" }, "you") : null, late,
    ctx.view ? el("span", { class: "seat-score" }, renderer.seatInfo(ctx, seat.seat)) : null);
  }));
}

// What ends the match (Alager's penalty limit), on a quiet line under the
// turn bar (which keeps to two lines on a phone): under the Players list it
// was below the board on a phone, out of a player's sight.
function renderMatchNote(ctx) {
  const note = document.getElementById("match-note");
  const text = ctx.view && renderer.limitNote ? renderer.limitNote(ctx) : "";
  note.hidden = !text;
  if (note.textContent !== text) note.textContent = text;
}

function renderLobby(ctx) {
  const box = document.getElementById("lobby-controls");
  if (ctx.table.status !== "lobby") {
    box.replaceChildren();
    return;
  }
  const me = currentUser();
  const creator = me && ctx.table.created_by === me;
  const free = ctx.table.seats.filter((s) => !s.username);
  const levels = (catalogue && catalogue[ctx.table.game].bot_levels) || ["basic"];
  const call = async (path, body) => {
    try {
      await client.lobbyCall(path, body);
      showRefusal("");
    } catch (err) {
      showRefusal(err.message);
    }
  };
  const parts = [];
  if (ctx.seat === null && free.length) {
    parts.push(me
      ? el("button", { type: "button", class: "button", onclick: () => call("join") }, "Take a seat")
      : el("a", { class: "button", href: `/accounts/login/?next=${location.pathname}` }, "Log in to play"));
  }
  if (creator && free.length) {
    const select = el("select", { "aria-label": "Bot level" },
      levels.map((level) => el("option", { value: level, selected: level === "basic" }, level)));
    // The level the creator picked stays picked when the seats change.
    const picked = box.querySelector("select");
    if (picked && levels.includes(picked.value)) select.value = picked.value;
    parts.push(el("div", { class: "row" }, select,
      el("button", { type: "button", class: "button ghost", onclick: () => call("bots", { level: select.value }) }, "Add a bot")));
  }
  if (creator) {
    parts.push(el("button", {
      type: "button", class: "button", disabled: free.length > 0,
      title: free.length ? "Every seat must be filled first" : "Deal the cards",
      onclick: () => call("start"),
    }, "Start the match"));
  }
  if (ctx.seat !== null) {
    parts.push(el("button", { type: "button", class: "button ghost", onclick: () => call("leave") }, "Leave"));
  }
  const waiting = free.length
    ? `Waiting for ${free.length} more player${free.length > 1 ? "s" : ""}. Share this page's address to invite someone.`
    : "Every seat is filled.";
  const next = [el("p", { class: "hint" }, waiting), el("div", { class: "lobby-actions" }, parts)];
  // The lobby is fetched again every few seconds: controls that would come out
  // the same keep their nodes, so a picked bot level, the focus and a click in
  // progress survive (as the board's do, see sameBoard).
  if (box.childElementCount === next.length && next.every((node, i) => box.children[i].isEqualNode(node))) return;
  const active = document.activeElement;
  const name = (node) => node.getAttribute("aria-label") || node.textContent;
  const focused = box.contains(active) ? name(active) : null;
  box.replaceChildren(...next);
  if (focused) {
    const twin = [...box.querySelectorAll("button, select, a")].find(
      (node) => name(node) === focused && !node.disabled);
    if (twin) twin.focus();
  }
}

// The move's clock: the table's `deadline` (an ISO time, in the REST answer
// and every socket frame; no game's view carries one).
function deadlineOf(ctx) {
  if (!ctx.deadline) return null;
  const parsed = Date.parse(ctx.deadline);
  return Number.isNaN(parsed) ? null : parsed;
}

function renderTimer(ctx) {
  const timer = document.getElementById("timer");
  clearInterval(deadlineTimer);
  const deadline = deadlineOf(ctx);
  if (!deadline || ctx.table.status !== "playing") {
    timer.hidden = true;
    return;
  }
  let warned = Math.max(0, Math.round((deadline - Date.now()) / 1000)) <= 10;
  const tick = () => {
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    if (left <= 10 && !warned && ctx.legal.length) announce(`${left} seconds left to move.`);
    warned = warned || left <= 10;
    timer.hidden = false;
    timer.replaceChildren(el("span", { class: "clock", "aria-hidden": "true" }),
      el("span", { class: "visually-hidden" }, "Time left: "),
      `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`);
    timer.classList.toggle("low", left <= 10);
  };
  tick();
  deadlineTimer = setInterval(tick, 500);
}

// A table waiting for players: what happens next, and who does it. Everyone
// read "the table's creator starts the match once every seat is filled", the
// creator too, and still once every seat was taken: the creator was not told
// it was up to them now, nor the others whom they were waiting for.
function lobbyStatus(ctx) {
  const me = currentUser();
  const free = ctx.table.seats.filter((s) => !s.username).length;
  const creator = ctx.table.created_by;
  if (me && creator === me) {
    return free
      ? `Waiting for ${free} more player${free > 1 ? "s" : ""}: add a bot or share this page's address, then start the match.`
      : "Every seat is filled: start the match when you are ready.";
  }
  const who = creator ? markName(creator) : "the table's creator";
  return free
    ? `Waiting for players: ${who} starts the match once every seat is filled.`
    : `Every seat is filled: waiting for ${who} to start the match.`;
}

function renderTurn(ctx) {
  const text = document.getElementById("turn-text");
  const bar = document.getElementById("turn-bar");
  let message;
  if (ctx.table.status === "lobby") message = lobbyStatus(ctx);
  else if (ctx.table.status === "aborted") message = "This table was closed before the match ended.";
  else if (!ctx.view) message = "Loading…";
  else if (ctx.view.outcome) message = `Match over. ${renderer.outcomeLine(marked(ctx))}`;
  else if (busy && client.checking) message = "Checking whether your move arrived…";
  else if (sending) message = "Sending your move…";
  else message = renderer.status(marked(ctx));
  // Each name in its own node, cut to its share of the line (withNames).
  const line = el("span", { id: "turn-text" }, withNames(message));
  if (!line.isEqualNode(text)) text.replaceWith(line);
  const myTurn = Boolean(ctx.legal.length);
  bar.classList.toggle("my-turn", myTurn);
  // The tab's title says it too: a player in another tab, or a screen reader
  // moving between tabs (which reads the title first), learns it is their turn.
  // (Not while the move is on its way.)
  const title = myTurn && !busy ? `Your turn · ${pageTitle}` : pageTitle;
  if (document.title !== title) document.title = title;
  if (myTurn && !wasMyTurn) announce(line.textContent);
  wasMyTurn = myTurn;
  // Someone took or left a seat: said once, as a move is (not on arrival).
  const lobby = ctx.table.status === "lobby" ? line.textContent : null;
  if (lobby && lobbyLine !== null && lobby !== lobbyLine) announce(lobby);
  lobbyLine = lobby;
}

// "You are watching": a person not seated at a table in play (a visitor, or
// someone whose seat a bot took over) is told so in words, with who plays,
// instead of guessing it from a turn bar that never turns to them.
function renderWatching(ctx) {
  const box = document.getElementById("watching");
  const watching = ctx.table.status === "playing" && (ctx.seat === null || ctx.seat === undefined);
  box.hidden = !watching;
  if (!watching) return;
  const seats = ctx.table.seats || [];
  const bots = seats.filter((s) => s.is_bot).length;
  const people = seats.filter((s) => s.username && !s.is_bot).length;
  const who = [
    people ? `${people} ${people === 1 ? "person" : "people"}` : null,
    bots ? `${bots} bot${bots === 1 ? "" : "s"}` : null,
  ].filter(Boolean).join(" and ");
  const message = `You are watching this match${who ? `: ${who} at ${seats.length} seats` : ""}.`;
  const text = document.getElementById("watching-text");
  if (text.textContent !== message) text.textContent = message;
}

function describe(event, ctx) {
  try {
    return renderer.describe(event, ctx);
  } catch {
    return null;
  }
}

function addLog(events) {
  if (!client.table) return;
  // Names cut as in the turn bar (withNames): a 150-character one made each
  // of its lines six lines long.
  const ctx = marked(context());
  const lines = [];
  for (const event of events) {
    const text = describe(event, ctx);
    if (!text) continue;
    const line = el("li", { dataset: { seq: event.seq } }, withNames(text));
    lines.push(line.textContent);
    logList.prepend(line);
  }
  while (logList.children.length > 200) logList.lastChild.remove();
  announce(...lines);
}

function renderSummary(ctx) {
  const box = document.getElementById("summary");
  const node = ctx.view ? renderer.summary(ctx) : null;
  box.hidden = !node;
  if (node) {
    document.getElementById("summary-h").textContent = node.dataset.title || "Last deal";
    document.getElementById("summary-body").replaceChildren(node);
  }
}

// The match-over dialog. Opened, it puts focus on "See the table" (not on the
// first focusable thing in it, the score table's scroll box); closed, by that
// button or Escape, focus goes back to the board.
const resultDialog = document.getElementById("result");
resultDialog.addEventListener("close", () => board.focus());

// "Play again": a match against bots ends with the offer of the same match
// again (same game, players, options, bot level, rated and clock), opened,
// filled and started like the lobby's, so a player need not go back and fill
// the form in again. Only for a seat whose opponents were all bots: people
// at a table would not know of a new one.
const againButtons = [...document.querySelectorAll(".play-again")];
const againError = document.getElementById("again-error");
let againBusy = false;

function againSettings(ctx) {
  const t = ctx.table;
  if (ctx.seat === null || ctx.seat === undefined || !t.seats) return null;
  const others = t.seats.filter((s) => s.seat !== ctx.seat);
  if (!others.length || !others.every((s) => s.is_bot)) return null;
  return {
    game: t.game, players: t.players, options: t.options || {}, rated: Boolean(t.rated),
    timeControl: t.time_control || null, fill: "bots", level: others[0].bot_level,
  };
}

async function playAgain() {
  const settings = againSettings(context());
  if (!settings || againBusy) return;
  againBusy = true;
  for (const button of againButtons) button.disabled = true;
  showError(againError, "");
  try {
    await openTable(settings);
  } catch (err) {
    // The dialog may be closed: the message goes where the player looks.
    const message = `Could not open a new table: ${err.message}`;
    if (resultDialog.open) showError(againError, message);
    else showRefusal(message);
    againBusy = false;
    for (const button of againButtons) button.disabled = false;
  }
}

for (const button of againButtons) button.addEventListener("click", playAgain);

function renderResult(ctx) {
  const finished = ctx.table.status === "finished" || (ctx.view && ctx.view.outcome);
  document.getElementById("replay-link").hidden = !finished;
  const again = finished && againSettings(ctx);
  for (const button of againButtons) button.hidden = !again;
  if (!finished || !ctx.view || resultShown) return;
  resultShown = true;
  document.getElementById("result-body").replaceChildren(renderer.result(ctx));
  resultDialog.showModal();
  resultDialog.querySelector("button[value=close]").focus();
}

function renderFair(ctx) {
  const fair = document.getElementById("fair");
  const t = ctx.table;
  if (t.seed) fair.replaceChildren("Seed revealed: ", el("code", {}, t.seed), " · ", el("a", { href: `/tables/${t.id}/replay/` }, "check the shuffle"));
  else if (t.seed_sha256) fair.replaceChildren("Shuffle commitment (SHA-256 of the seed): ", el("code", { class: "hash" }, t.seed_sha256));
  else fair.replaceChildren();
}

// Keyboard focus across redraws: on the same control when it is still there;
// on the board itself when the move just played took it away (the next Tab
// goes to the first card or move), never lost to the top of the page. A
// control only disabled while a move is on its way gets focus back after.
let waitingKey = null;

function keepFocus(key) {
  const again = key ? board.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  waitingKey = again && again.disabled ? key : null;
  if (again && !again.disabled) again.focus({ preventScroll: true });
  else if (document.activeElement !== board) board.focus({ preventScroll: true });
}

// Allegra's ring of grids scrolls sideways on a phone: keep the player's
// scroll position across redraws, and start with their own grid in view.
function keepRingInView(scrolled) {
  const ring = board.querySelector(".ring-scroll");
  if (!ring) return;
  if (scrolled !== null) {
    ring.scrollLeft = scrolled;
    return;
  }
  const mine = ring.querySelector(".grid-block.me");
  if (mine) ring.scrollLeft = mine.offsetLeft - (ring.clientWidth - mine.offsetWidth) / 2;
}

// A redraw that changes nothing leaves the board alone. The page redraws on
// every poll and presence frame; replacing identical cards under the pointer
// between its press and release loses the click (the press and the release
// land on different elements). What the player opened ("Last trick") stays
// open across redraws.
function sameBoard(next) {
  const now = board.firstElementChild;
  if (!now || board.childElementCount !== 1) return false;
  for (const open of now.querySelectorAll("details[open][class]")) {
    const twin = next.querySelector(`details.${CSS.escape(open.classList[0])}`);
    if (twin) twin.open = true;
  }
  return now.isEqualNode(next);
}

function render() {
  if (!client.table) return;
  const ctx = context();
  // State for people (the CSS) and for the browser tests alike.
  root.dataset.seq = String(client.seq);
  root.dataset.status = ctx.view && ctx.view.outcome ? "finished" : ctx.table.status;
  root.dataset.myturn = ctx.legal.length && !busy ? "1" : "0";
  renderTurn(ctx);
  renderWatching(ctx);
  renderTimer(ctx);
  renderSeats(ctx);
  renderMatchNote(ctx);
  renderLobby(ctx);
  if (ctx.view) {
    const active = document.activeElement;
    const inBoard = Boolean(active) && board.contains(active);
    const focused = inBoard && active !== board && active.dataset ? active.dataset.key : waitingKey;
    const ring = board.querySelector(".ring-scroll");
    const scrolled = ring ? ring.scrollLeft : null;
    const next = renderer.board(ctx);
    if (!sameBoard(next)) {
      board.replaceChildren(next);
      keepRingInView(scrolled);
      if (inBoard) keepFocus(focused);
    }
  } else {
    board.replaceChildren(el("p", { class: "empty" }, ctx.table.status === "lobby"
      ? "The cards are dealt when the match starts." : "No cards on this table."));
  }
  renderSummary(ctx);
  renderFair(ctx);
  renderResult(ctx);
}

const conn = document.getElementById("conn");
// The server out of reach, and back: read out once each, as a move is. The
// top bar's "reconnecting…" alone was never heard, and a screen-reader user
// played on into "your move may not have arrived" with no word why. A socket
// handing over to REST polling is no loss (the table is still followed).
let reachable = true;
client.addEventListener("connection", (event) => {
  const { mode, ok, message } = event.detail;
  conn.className = `conn ${ok ? mode : "down"}`;
  conn.textContent = !ok ? "reconnecting…" : mode === "socket" ? "live" : "live (polling)";
  conn.title = message || (mode === "socket" ? "Connected over WebSocket" : "Following the table over HTTP");
  if (ok !== reachable) {
    reachable = ok;
    announce(ok
      ? "Connected again: the table is up to date."
      : "The connection to the table is lost: reconnecting. Moves by others show when it is back.");
  }
});
client.addEventListener("change", render);
client.addEventListener("checking", render);
client.addEventListener("events", (event) => addLog(event.detail.events));
client.addEventListener("refused", (event) => showRefusal(refusalText(event.detail.error)));
// Logged out elsewhere (a password change, a deactivated account): show the
// page as it now is for this browser, with "Log in" in the top bar.
client.addEventListener("signedout", () => window.location.reload());

// The seat's own clock ran out (presence counts its timeouts in a row): the
// move the table made for it looks like any other in the log, so say so, until
// the person moves again. It used to go after 8 s like a refused move's
// message, and a person back at the tab found "Your turn" and no word that the
// table had moved for them, or that a bot was playing their seat.
let myTimeouts = null;
client.addEventListener("presence", (event) => {
  const seat = client.table ? client.table.seat : null;
  const mine = event.detail.seats.find((entry) => entry.seat === seat);
  if (!mine || seat === null) return;
  if (myTimeouts !== null && mine.timeouts > myTimeouts) {
    showRefusal(mine.away
      ? "Your time ran out again: a bot plays your seat until you make a move."
      : "Your time ran out: the table made a move for you (see the log).", { stay: true });
  }
  myTimeouts = mine.timeouts;
});
window.addEventListener("cardroom:deck", render);

// The second press of a double click or double tap (its click's `detail`
// is 2 or more) is not a move. Against bots the answer, the bots' moves with
// it, can be back before that press: it then landed on the next turn's board
// and played a card the player never chose (one double tap, two cards). A
// key press (`detail` 0) and each single press count as before.
board.addEventListener("click", (event) => {
  if (event.detail > 1 && event.target.closest("button")) {
    event.preventDefault();
    event.stopPropagation();
  }
}, true);

// Keyboard: digits 1–9 press the n-th action button, Escape clears a message.
// A digit moves focus to the button it presses, as a press by Tab and Enter
// would: after the redraw focus is on that button if it is still there,
// otherwise on the board (keepFocus), never on the page's top or a control
// the move took away.
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea, dialog")) return;
  if (event.key === "Escape") showRefusal("");
  if (/^[1-9]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
    const buttons = board.querySelectorAll(".actions button:not([disabled])");
    const button = buttons[Number(event.key) - 1];
    if (button) {
      event.preventDefault();
      button.focus({ preventScroll: true });
      button.click();
    }
  }
});

Promise.all([games().catch(() => null), client.start()])
  .then(([byName]) => {
    catalogue = byName;
    logList.replaceChildren();
    addLog(client.events);
    render();
    // From now on, what changes is read out (not what was there on arrival).
    announcing = true;
  })
  .catch((err) => {
    document.getElementById("turn-text").textContent = err.message;
  });

// A handle for the console and the browser tests: the page's client and move.
window.cardroom = { client, act };
