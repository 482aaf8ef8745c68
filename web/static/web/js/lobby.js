// The lobby: the create-table form built from the game catalogue, one-click
// games against bots, and the lists of open, running and finished tables.
import { api, currentUser, el, games, showError, timeAgo } from "./api.js";
import { forgetPendingCreate, openTable } from "./open-table.js";

const errorBox = document.getElementById("lobby-error");
const form = document.getElementById("create-form");
const gameSelect = document.getElementById("create-game");
const playersSelect = document.getElementById("create-players");
const levelSelect = document.getElementById("create-level");
const optionsBox = document.getElementById("create-options");
const blurb = document.getElementById("game-blurb");

// On a phone the game options, unfolded, are some 2,000 px of form between the
// one-click buttons and the list of open tables a friend comes to join: start
// them folded there (a tap unfolds them); a wide screen shows them beside the list.
if (window.matchMedia("(max-width: 900px)").matches) {
  form.querySelector("details.options").open = false;
}

const BLURBS = {
  alager: "Czech three-card exchange game: swap with the table, knock with the best hand, avoid penalty points.",
  alkort: "Icelandic trick-taking game for 2, or 4 in partnerships: win the most of nine tricks.",
  allegra: "Golf on 4×3 grids where neighbours share a column: lowest total wins, triples vanish.",
};
// One click, a real match with the game's usual table size.
const QUICK = {
  alager: { players: 3, options: {} },
  alkort: { players: 2, options: {} },
  allegra: { players: 3, options: {} },
};

let catalogue = {};

function loginFirst() {
  window.location.assign(`/accounts/login/?next=${encodeURIComponent(location.pathname)}`);
}

// The options' names in words (the API's names are snake_case identifiers).
const OPTION_LABELS = {
  deck: "Deck",
  hori_enabled: "Hoří",
  deal_pattern: "Dealing",
  a1_discard_to: "A card discarded when drawing goes to",
  replenish_shuffle: "Shuffle the recycled discards",
  konec_after_exchange: "Exchange and knock in one turn",
  konec_min_round: "Knocking allowed from round",
  tie_rule: "Tied lowest hands",
  knocker_lowest_penalty: "Knocker's points when lowest",
  allow_negative_penalties: "Penalty points below zero",
  end_mode: "End of the match",
  penalty_limit: "Penalty limit",
  num_deals: "Number of deals",
  dealer_rule: "Next dealer",
  first_dealer: "First dealer",
  max_turns_per_deal: "Turn limit per deal",
  target: "Points to win",
  lead_rule: "Who leads each trick",
  seven_rule: "Unbeatable sevens",
  partner_reveal: "Partners show each other a card",
  play_out_all_tricks: "Play out all nine tricks",
  rounds: "Rounds",
  deck_composition: "Custom deck",
  first_player: "First player",
  knock_min_players: "Knocking with at least … players",
  long_run_rule: "Runs of 4–5 equal cards",
  triple_cards_to: "Removed triples go to",
  remove_triples_on_final_reveal: "Remove triples in the final reveal",
  tie_counts_as_lowest: "A trigger tied for lowest counts as lowest",
  double_only_positive: "Double only a positive score",
  trigger_mode: "Who can end a round",
  next_round_start: "Later rounds start with",
  game_tie_break: "Tied totals",
  max_turns_per_round: "Turn limit per round",
};
// Options whose value is a seat: offered as the table's seats, numbered from
// 1 as the table page numbers them (the API counts from 0).
const SEAT_OPTIONS = new Set(["first_dealer", "first_player"]);

function optionLabel(name) {
  const words = name.replaceAll("_", " ");
  return OPTION_LABELS[name] || words.charAt(0).toUpperCase() + words.slice(1);
}

// The rules' descriptions are written for the API: "null" for a value left
// out (the form's empty box), true/false for a box ticked or not, and values
// by their names ("fixed_deals"), which the form shows in words.
function optionHint(spec) {
  let text = (spec.description || "").replace(/\bnull\b/g, "empty");
  if (spec.type === "bool") text = text.replace(/\bfalse\b/g, "unticked").replace(/\btrue\b/g, "ticked");
  return valueWords(text);
}

function valueWords(text) {
  return text.replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, (name) => name.replaceAll("_", " "))
    .replace(/\b([a-z]+)(\d+)\b/g, "$1 $2");
}

function optionInput(name, spec, players) {
  const id = `opt-${name}`;
  const label = optionLabel(name);
  // Each option's explanation is read with its field.
  const hint = el("p", { class: "hint", id: `${id}-hint` }, optionHint(spec));
  let input;
  if (spec.type === "bool") {
    input = el("input", { type: "checkbox", id, name, checked: spec.default === true, "aria-describedby": hint.id });
    return el("div", { class: "option" },
      el("label", { class: "check", for: id }, input, ` ${label}`), hint);
  }
  if (SEAT_OPTIONS.has(name) && spec.type === "int") {
    input = el("select", { id, name },
      Array.from({ length: players }, (_, seat) => el("option", {
        value: String(seat), selected: seat === spec.default,
      }, `Seat ${seat + 1}${seat === spec.default ? " (default)" : ""}`)));
  } else if (spec.choices) {
    input = el("select", { id, name },
      spec.choices.map((choice) => el("option", {
        value: String(choice), selected: choice === spec.default,
      }, valueWords(String(choice)) + (choice === spec.default ? " (default)" : ""))));
  } else if (spec.type === "int") {
    input = el("input", {
      type: "number", id, name, min: spec.min, max: spec.max, step: 1,
      value: spec.default ?? "", placeholder: spec.nullable ? "default" : "",
    });
  } else {
    input = el("input", { type: "text", id, name, value: spec.default ?? "", placeholder: "default" });
  }
  input.dataset.kind = spec.type;
  input.setAttribute("aria-describedby", hint.id);
  return el("div", { class: "option" }, el("label", { for: id }, label, input), hint);
}

function readOptions(game) {
  const options = {};
  for (const [name, spec] of Object.entries(game.options)) {
    const input = form.elements[name];
    if (!input) continue;
    let value;
    if (spec.type === "bool") value = input.checked;
    else if (input.value === "") value = null;
    else if (spec.type === "int") value = Number(input.value);
    else if (spec.type === "int_list") value = input.value.split(/[ ,]+/).filter(Boolean).map(Number);
    else if (spec.choices && typeof spec.choices[0] === "number") value = Number(input.value);
    else value = input.value;
    if (value === null && !spec.nullable) continue;
    if (JSON.stringify(value) !== JSON.stringify(spec.default)) options[name] = value;
  }
  return options;
}

function fillGameForm() {
  const game = catalogue[gameSelect.value];
  gameSelect.setAttribute("aria-describedby", blurb.id);
  blurb.replaceChildren(BLURBS[game.name] || "", " ",
    el("a", { href: `/rules/${game.name}/` }, "Read the rules"));
  playersSelect.replaceChildren(...game.player_counts.map((n) =>
    el("option", { value: n, selected: n === QUICK[game.name].players }, `${n} players`)));
  levelSelect.replaceChildren(...game.bot_levels.map((level) =>
    el("option", { value: level, selected: level === "basic" }, level)));
  fillOptions();
}

// The numbers of players offered follow the options that change them
// (Alager's 32-card deck seats 2 to 8: the catalogue's
// player_counts_by_option), so the form offers no count the table would
// refuse. A count no longer offered comes down to the largest one that is.
function offerPlayers() {
  const game = catalogue[gameSelect.value];
  let counts = game.player_counts;
  for (const [name, byChoice] of Object.entries(game.player_counts_by_option || {})) {
    const allowed = byChoice[form.elements[name]?.value];
    if (allowed) counts = counts.filter((n) => allowed.includes(n));
  }
  const chosen = Number(playersSelect.value);
  const keep = counts.includes(chosen) ? chosen : Math.max(...counts.filter((n) => n <= chosen), counts[0]);
  playersSelect.replaceChildren(...counts.map((n) =>
    el("option", { value: n, selected: n === keep }, `${n} players`)));
  if (keep !== chosen) reseatOptions();
}

// The seat options follow the number of players chosen.
function reseatOptions() {
  const game = catalogue[gameSelect.value];
  const players = Number(playersSelect.value);
  for (const name of SEAT_OPTIONS) {
    const old = document.getElementById(`opt-${name}`);
    if (old && game.options[name]) old.closest(".option").replaceWith(optionInput(name, game.options[name], players));
  }
}

function fillOptions() {
  const game = catalogue[gameSelect.value];
  const players = Number(playersSelect.value);
  optionsBox.replaceChildren(...Object.entries(game.options).map(([n, s]) => optionInput(n, s, players)));
}

// Every button that opens a table is off while one is being opened: a double
// click, or a second button, sends nothing more.
const createButtons = [form.querySelector("button[type=submit]"), ...document.querySelectorAll(".quick-btn")];
let creating = false;

async function createOnce(settings) {
  if (creating) return;
  showError(errorBox, "");
  if (!currentUser()) return loginFirst();
  creating = true;
  // The button pressed goes off under the keyboard, and the browser drops
  // focus to the page's top: on a refusal it comes back to that button, so a
  // keyboard user tries again from where they were, not from the top bar.
  const pressed = document.activeElement;
  for (const button of createButtons) button.disabled = true;
  try {
    await openTable(settings());
  } catch (err) {
    showError(errorBox, err.message);
    creating = false;
    for (const button of createButtons) button.disabled = false;
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost && createButtons.includes(pressed)) pressed.focus();
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  createOnce(() => {
    const game = catalogue[gameSelect.value];
    return {
      game: game.name,
      players: Number(playersSelect.value),
      options: readOptions(game),
      rated: document.getElementById("create-rated").checked,
      timeControl: Number(document.getElementById("create-time").value) || null,
      fill: document.getElementById("create-fill").value,
      level: levelSelect.value,
    };
  });
});

// Back from the table it opened, the browser may show this page as it was
// left (the back-forward cache): the buttons still off, the last request's id
// still kept. The next click is a new table.
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  creating = false;
  forgetPendingCreate();
  for (const button of createButtons) button.disabled = false;
});

for (const button of document.querySelectorAll(".quick-btn")) {
  button.addEventListener("click", () => {
    const quick = QUICK[button.dataset.game];
    createOnce(() => ({
      game: button.dataset.game, players: quick.players, options: quick.options,
      rated: false, fill: "bots", level: "basic",
    }));
  });
}

// --- the table lists -------------------------------------------------------

const list = document.getElementById("table-list");
let status = "lobby";
// A match in play with no move for this many hours is idle, and so is an open
// table nobody has taken a seat at for as long (TABLE_IDLE_HOURS; the API
// marks each table's "idle"): the Playing and Open tabs fold them under "Idle
// tables"; Mine shows them, marked idle.
const idleHours = Number(list.dataset.idleHours) || 24;

// "last move 3 days ago", "opened 3 days ago": how long a table has been
// still, in days past the first day (timeAgo's date alone would not say how
// long).
function sinceWords(iso) {
  const seconds = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  if (seconds < 86400) return timeAgo(iso);
  const days = Math.floor(seconds / 86400);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}

// An open table says when it was opened and, if later, when a seat was last
// taken (a join, a bot added): what its activity (active_at) is made of.
function whenText(table) {
  if (table.status === "playing") return `last move ${sinceWords(table.active_at)}`;
  if (table.status !== "lobby") return timeAgo(table.created_at);
  const opened = `opened ${sinceWords(table.created_at)}`;
  const taken = new Date(table.active_at) - new Date(table.created_at) >= 60000;
  return taken ? `${opened}, last seat taken ${sinceWords(table.active_at)}` : opened;
}

function seatsText(table) {
  return table.seats.map((seat) => seat.username
    ? (seat.is_bot ? `${seat.bot_level} bot` : seat.username)
    : "open seat").join(" · ");
}

function tableRow(table) {
  const me = currentUser();
  const seated = table.seats.some((s) => s.username === me && !s.is_bot);
  const free = table.seats.some((s) => !s.username);
  const actions = [];
  if (table.status === "lobby" && free && !seated) {
    actions.push(el("button", {
      type: "button", class: "button small",
      onclick: async () => {
        if (!me) return loginFirst();
        try {
          await api(`/api/tables/${table.id}/join/`, { method: "POST", body: {} });
          window.location.assign(`/tables/${table.id}/`);
        } catch (err) {
          showError(errorBox, err.message);
        }
      },
      "aria-label": `Join ${table.title} #${table.id}`, dataset: { key: `join-${table.id}` },
    }, "Join"));
  }
  const label = table.status === "finished" ? "Result" : seated ? "Open" : "Watch";
  actions.push(el("a", {
    class: "button small ghost", href: `/tables/${table.id}/`,
    "aria-label": `${label} ${table.title} #${table.id}`, dataset: { key: `open-${table.id}` },
  }, label));
  if (table.status === "finished") {
    actions.push(el("a", {
      class: "button small ghost", href: `/tables/${table.id}/replay/`,
      "aria-label": `Replay ${table.title} #${table.id}`, dataset: { key: `replay-${table.id}` },
    }, "Replay"));
  }
  return el("li", { class: "table-row", dataset: { table: table.id } },
    el("div", { class: "table-main" },
      el("strong", {}, `${table.title} #${table.id}`),
      table.idle ? el("span", { class: "tag idle" }, "idle") : null,
      el("span", { class: "muted" }, ` ${table.players} players${table.rated ? " · rated" : ""} · by ${table.created_by} · ${whenText(table)}`),
      el("div", { class: "seats-line" }, seatsText(table))),
    el("div", { class: "table-actions" }, actions));
}

// The list is refreshed every few seconds: redrawn only when it changed, with
// keyboard focus kept on the same button or link (a redraw used to drop it).
let shown = null;

function showList(key, build) {
  if (key === shown) return;
  shown = key;
  const active = document.activeElement;
  const focused = active && list.contains(active) && active.dataset ? active.dataset.key : null;
  list.replaceChildren(build());
  if (focused) {
    const again = list.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    (again || list).focus({ preventScroll: true });
  }
}

// What a row shows that can change: redrawn only when one of these did.
function rowsKey(tables) {
  return tables.map((t) => [t.id, t.status, t.seats, whenText(t), t.idle]);
}

// The tabs that fold their idle tables away, and what they say. Open lists
// the open tables with a seat taken (or opened) in the last idleHours,
// Playing the matches with a move in them, the latest activity first; the
// idle ones (a creator who walked away, since only they can start an open
// table; a match everyone walked away from, with no turn clock for a bot to
// play on) are folded under "Idle tables (N)", closed until opened, so a list
// of dead tables does not hide the live ones.
const FOLDED = {
  lobby: {
    none: "No open tables right now — create one, or play bots in one click.",
    allIdle: `No table has been opened or joined in the last ${idleHours} hours — create one, or play bots in one click.`,
    hint: `Nobody has taken a seat for ${idleHours} hours or more: whoever opened them may have left, `
      + "and only they can start them. Their creators find them under Mine.",
    more: "most recently opened or joined",
  },
  playing: {
    none: "No matches in play right now.",
    allIdle: `No match has had a move in the last ${idleHours} hours.`,
    hint: `No move for ${idleHours} hours or more: everyone may have left. `
      + "Their players find them under Mine and can play on.",
    more: "most recently played",
  },
};
// Whether each tab's fold is open: it stays as it was across refreshes.
const idleOpen = { lobby: false, playing: false };

// One request while the fold is closed, as before: in order of activity the
// live tables come first, so the page holds them all whenever it reaches an
// idle one (or the end), and the count tells how many idle ones follow. The
// open fold reads the idle ones themselves.
async function loadFolded(tab) {
  const words = FOLDED[tab];
  const query = `/api/tables/?status=${tab}&order=active&page_size=30`;
  const [page, idleList] = await Promise.all([api(query), idleOpen[tab] ? api(`${query}&idle=true`) : null]);
  if (status !== tab) return; // another tab was chosen meanwhile
  const live = page.results.filter((t) => !t.idle);
  const complete = live.length < page.results.length || page.results.length === page.count;
  const idleCount = idleList ? idleList.count : complete ? page.count - live.length : 0;
  const idleRows = idleList ? idleList.results : page.results.filter((t) => t.idle);
  const key = JSON.stringify([tab, rowsKey(live), idleCount, rowsKey(idleRows)]);
  showList(key, () => {
    const box = document.createDocumentFragment();
    box.append(live.length
      ? el("ul", { class: "tables" }, live.map(tableRow))
      : el("p", { class: "empty" }, idleCount ? words.allIdle : words.none));
    if (!idleCount) return box;
    const fold = el("details", { class: "idle-tables", open: idleOpen[tab] },
      el("summary", { dataset: { key: "idle-summary" } }, `Idle tables (${idleCount})`),
      el("p", { class: "hint" }, words.hint),
      el("ul", { class: "tables" }, idleRows.map(tableRow)),
      idleCount > idleRows.length
        ? el("p", { class: "hint" }, `Showing the ${idleRows.length} ${words.more} of ${idleCount}.`)
        : null);
    fold.addEventListener("toggle", () => {
      if (idleOpen[tab] === fold.open) return;
      idleOpen[tab] = fold.open;
      if (fold.open) loadTables(); // read the idle tables themselves
    });
    box.append(fold);
    return box;
  });
}

async function loadTables() {
  const query = status === "mine" ? "mine=true" : `status=${status}`;
  try {
    if (status in FOLDED) return await loadFolded(status);
    const asked = status;
    const page = await api(`/api/tables/?${query}&page_size=30`);
    if (status !== asked) return; // another tab was chosen meanwhile
    // The same tables drawn again would only say "just now" older: skip.
    const key = JSON.stringify([status, rowsKey(page.results)]);
    if (!page.results.length) {
      const empty = {
        finished: "No finished matches yet.",
        mine: "You have no tables yet.",
      }[status];
      showList(key, () => el("p", { class: "empty" }, empty));
      return;
    }
    showList(key, () => el("ul", { class: "tables" }, page.results.map(tableRow)));
  } catch (err) {
    showList(`error ${err.message}`, () => el("p", { class: "empty" }, err.message));
  }
}

// The tabs as tabs: one Tab stop, arrow keys (and Home, End) move between them.
const tabs = [...document.querySelectorAll("[role=tab]")];

function choose(tab) {
  status = tab.dataset.status;
  for (const other of tabs) {
    other.setAttribute("aria-selected", String(other === tab));
    other.tabIndex = other === tab ? 0 : -1;
  }
  list.setAttribute("aria-labelledby", tab.id);
  loadTables();
}

for (const tab of tabs) {
  tab.addEventListener("click", () => choose(tab));
  tab.addEventListener("keydown", (event) => {
    const at = tabs.indexOf(tab);
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = tabs[(next + tabs.length) % tabs.length];
    target.focus();
    choose(target);
  });
}

games().then((byName) => {
  catalogue = byName;
  gameSelect.replaceChildren(...Object.values(byName).map((game) =>
    el("option", { value: game.name }, game.title)));
  gameSelect.addEventListener("change", fillGameForm);
  playersSelect.addEventListener("change", reseatOptions);
  optionsBox.addEventListener("change", (event) => {
    if (event.target.name in (catalogue[gameSelect.value].player_counts_by_option || {})) offerPlayers();
  });
  fillGameForm();
}).catch((err) => showError(errorBox, err.message));

loadTables();
setInterval(() => { if (!document.hidden) loadTables(); }, 5000);
