// Player profiles, leaderboards and per-game statistics, read from the stats
// API (/api/stats/…, docs/stats.md): ratings with their history charted, each
// game's figures as tiles and lists, the opener's results beside their fair
// share. A 404 (an unknown player, or a server without the stats API) shows a
// friendly empty state.
import { api, el, emptyState, games, pager, plural, results, scrollBox, timeAgo } from "./api.js";
import { barChart, chartInWords, lineChart } from "./chart.js";
import { seatLabel } from "./games/common.js";

const page = document.body.dataset.page;
const main = document.getElementById("stats-root");


async function maybe(path) {
  try {
    return await api(path);
  } catch (err) {
    if (err.status === 404) return null;
    throw err;
  }
}

function fmt(value) {
  return typeof value === "number" ? (Number.isInteger(value) ? String(value) : value.toFixed(2)) : String(value);
}

function titleOf(key) {
  return key.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
}

// What each figure of the stats API (docs/stats.md, "What is counted") is
// called on a page. A figure not named here is shown under its key.
const LABELS = {
  matches: "Matches", wins: "Wins", win_rate: "Win rate", average_place: "Average place",
  average_moves: "Moves a match", average_minutes: "Length of a match",
  deals: "Deals", knocks: "Konec called", knocks_lowest: "Konec with the lowest hand",
  knocker_lowest_rate: "Share of Konec with the lowest hand",
  average_showdown_value: "Average hand at a showdown", showdowns: "Showdowns",
  alager: "Alager announced", hori: "Hoří announced",
  tricks: "Tricks won", tricks_per_deal: "Tricks a deal", muk: "Deals won by muk",
  strokes: "Deals won by a stroke", simple: "Simple wins", deal_points: "Deal points",
  stock_exchanges: "Stock exchanges", sevens_led: "Sevens led",
  rounds: "Rounds", average_round_score: "Average round score", times_doubled: "Rounds doubled",
  doubled: "Rounds doubled", triples_removed: "Triples removed", triples: "Triples removed",
  triple_cards: "Cards in triples", knocks_made: "Knocks", knocks_granted: "Knocks granted",
  first_player: "Matches opened", first_player_wins: "Won after opening",
  moves: "Moves", rated_matches: "Rated matches", timeouts: "Timeouts",
};
// Where a key means something else in one game (Allegra's knocks are not
// Konec), and what a game's totals are called (over a whole game, a trick is
// just a trick).
const GAME_LABELS = { allegra: { knocks: "Knocks" } };
const TOTAL_LABELS = { alager: { knocks: "Konec calls" }, alkort: { tricks: "Tricks" } };

// A match's final score means something else in each game.
const SCORE = { alager: "Average penalty points", alkort: "Average side points", allegra: "Average points" };

// A house bot's figures count each seat it held as a match of its own (a bot
// in seven seats of a table has seven), so on its profile the counts of
// matches say they count seats; for a person, one seat a table, seats and
// matches are the same and keep the shorter word.
const BOT_LABELS = { matches: "Seats played", rated_matches: "Rated seats" };

function labelOf(key, game, bot = false) {
  if (key === "average_score") return SCORE[game] || "Average score";
  return (bot && BOT_LABELS[key]) || (GAME_LABELS[game] || {})[key] || LABELS[key] || titleOf(key);
}

// Figures in the order LABELS names them (each game's own first), the rest after.
const ORDER = Object.keys(LABELS);
function ordered(entries) {
  const rank = (key) => (ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length);
  return [...entries].sort(([a], [b]) => rank(a) - rank(b));
}

function percent(value) {
  return `${Math.round(value * 100)}%`;
}

function duration(minutes) {
  const seconds = Math.round(minutes * 60);
  if (seconds < 90) return `${seconds} s`;
  if (minutes < 90) return `${Math.round(minutes)} min`;
  return `${Math.floor(minutes / 60)} h ${Math.round(minutes % 60)} min`;
}

// A figure as text: rates as percentages, a match's length as a duration,
// "—" for an average with nothing to average yet.
function show(key, value) {
  if (value === null || value === undefined) return "—";
  if (key.endsWith("_rate")) return percent(value);
  if (key === "average_minutes") return duration(value);
  return fmt(value);
}

// One figure as a tile; a rate gets a bar of its share.
function tile(key, value, game, bot = false) {
  return el("div", { class: "panel compact tile", dataset: { figure: key } },
    el("div", { class: "muted" }, labelOf(key, game, bot)),
    el("div", { class: "stat" }, show(key, value)),
    key.endsWith("_rate") && value !== null ? el("div", { class: "meter" }, el("span", { style: `width:${percent(value)}` })) : null);
}

// The rest of a game's figures, label and value side by side.
function figureList(entries, game, bot = false) {
  return el("dl", { class: "figures" }, entries.map(([key, value]) =>
    el("div", { dataset: { figure: key } }, el("dt", {}, labelOf(key, game, bot)), el("dd", {}, show(key, value)))));
}

// How far the counting has got (every stats answer carries it): a line
// under the figures, not a figure of its own.
// How far the site's statistics have counted (the API's computed_through):
// every finished table of the site, not only those of the page's player.
function countedNote(through) {
  if (!through) return null;
  const parts = [];
  if (through.tables) {
    const latest = through.finished_at ? `, the latest finished ${timeAgo(through.finished_at)}` : "";
    parts.push(`Up to date with the site's ${plural(through.tables, "finished table")}${latest}.`);
  }
  if (through.pending) parts.push(`${through.pending} more still being counted.`);
  return parts.length ? el("p", { class: "hint", id: "counted" }, parts.join(" ")) : null;
}

const HEADLINE = ["matches", "wins", "win_rate", "average_place", "average_score"];

// A player's figures in each game they have finished a match of.
function playerGames(stats, catalogue) {
  const played = Object.entries(stats.games || {}).filter(([, figures]) => figures && figures.matches > 0);
  if (!played.length) {
    return [el("section", { class: "panel" }, el("h2", {}, "Statistics"), emptyState("No finished matches yet."))];
  }
  return played.map(([game, figures]) => el("section", { class: "panel game-figures", dataset: { game } },
    el("h2", {}, `${(catalogue[game] || { title: game }).title} statistics`),
    el("div", { class: "stats-grid" }, HEADLINE.filter((key) => key in figures).map((key) => tile(key, figures[key], game, stats.is_bot))),
    figureList(ordered(Object.entries(figures).filter(([key]) => !HEADLINE.includes(key))), game, stats.is_bot)));
}

// The first player's results beside their fair share, per table size.
function firstPlayerTable(byPlayers) {
  const rows = Object.entries(byPlayers || {}).filter(([, row]) => row && row.matches > 0)
    .sort(([a], [b]) => Number(a) - Number(b));
  if (!rows.length) return null;
  return el("section", { class: "panel" }, el("h2", {}, "Does opening help?"),
    el("p", { class: "hint" }, "How often the player who opens the match wins it, against the share each player would win if opening made no difference (the mark)."),
    scrollBox("Opener's results", el("table", { class: "scores", id: "first-player" },
      el("thead", {}, el("tr", {}, ["Players", "Matches", "Opener won",
        // The bar's column: named for a screen reader, blank on screen.
        el("span", { class: "visually-hidden" }, "Opener won against the fair share, as a bar"),
        "Fair share", "Opener's average place"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows.map(([players, row]) => el("tr", {},
        el("th", {}, players), el("td", {}, fmt(row.matches)),
        el("td", {}, show("first_player_win_rate", row.first_player_win_rate)),
        el("td", { class: "meter-cell" }, el("div", { class: "meter" },
          el("span", { style: `width:${percent(row.first_player_win_rate || 0)}` }),
          el("i", { class: "mark", style: `left:${percent(row.fair_share)}`, title: `fair share ${percent(row.fair_share)}` }))),
        el("td", {}, percent(row.fair_share)),
        el("td", {}, show("first_player_average_place", row.first_player_average_place))))))));
}

// A phone: charts are drawn on a canvas as wide as the panel they go in (one
// unit a pixel), with 12 px text, so the text is not scaled down with the
// drawing (a 420-unit chart in a 336 px panel had 8.8 px labels). A desktop
// keeps the 640-unit canvas, scaled up to its wider panel.
function narrow() {
  return window.innerWidth < 600;
}

function chartSize() {
  if (!narrow()) return { width: 640, fontSize: 11 };
  const style = getComputedStyle(main);
  const inner = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  // A panel's padding and border (16 + 1 px a side).
  return { width: Math.max(260, Math.floor(inner - 34)), fontSize: 12 };
}

// The history API pages its entries oldest first (at most 500 a page): the
// chart shows the latest HISTORY_POINTS, so that it ends at today's rating
// however many matches came before.
const HISTORY_POINTS = 500;

// Each game's history is read once a page.
const histories = new Map();

function ratingHistory(username, game) {
  if (!histories.has(game)) histories.set(game, readRatingHistory(username, game));
  return histories.get(game);
}

async function readRatingHistory(username, game) {
  const base = `/api/stats/players/${encodeURIComponent(username)}/ratings/${game}/?page_size=${HISTORY_POINTS}`;
  const first = await maybe(base);
  const history = results(first);
  if (!first || first.count <= history.length) return history;
  const last = Math.ceil(first.count / HISTORY_POINTS);
  const [before, end] = await Promise.all([maybe(`${base}&page=${last - 1}`), maybe(`${base}&page=${last}`)]);
  const read = [...results(before), ...results(end)];
  // A house bot's table has an entry per seat: where the latest entries
  // begin inside a table, that table is left out rather than charted with
  // only some of its seats.
  let start = Math.max(0, read.length - HISTORY_POINTS);
  while (start > 0 && start < read.length && read[start].table === read[start - 1].table) start += 1;
  return read.slice(start);
}

// A seat's place, or a house bot's several: "place 2", "places 1, 1 and 3".
function placesText(places) {
  if (places.length === 1) return `place ${places[0]}`;
  return `places ${places.slice(0, -1).join(", ")} and ${places[places.length - 1]}`;
}

// The history has an entry per seat held (docs/stats.md): a house bot that
// held several seats of one table has one entry for each, all with the one
// rating it got from that table. The chart has a point per table, with
// every seat's place.
function byTable(entries) {
  const tables = [];
  for (const entry of entries) {
    const last = tables[tables.length - 1];
    if (last && last.table === entry.table) last.places.push(entry.place);
    else tables.push({ ...entry, places: [entry.place] });
  }
  return tables;
}

// A rating's "matches" are the rated tables it was updated at, once a table
// (docs/stats.md): a person's matches, a house bot's tables, whose seats its
// statistics count one by one. The chart of a bot says "table".
async function historyChart(username, game, bot) {
  const history = byTable(await ratingHistory(username, game));
  if (!history.length) return emptyState("No rated matches yet.");
  const [unit, units] = bot ? ["table", "tables"] : ["match", "matches"];
  const point = ({ mu, sigma }, label, axis) => ({
    y: mu - 3 * sigma, low: mu - 3 * sigma, high: mu,
    label: `${label}rating ${(mu - 3 * sigma).toFixed(2)} (μ ${mu.toFixed(2)}, σ ${sigma.toFixed(2)})`, axis,
  });
  const points = history.map((entry, i) => point(entry.after, `Table ${entry.table}: ${placesText(entry.places)}, `,
    entry.matches === 1 ? `first ${unit}` : (i === 0 ? `${unit} ${entry.matches}` : `${entry.matches} ${units}`)));
  // A history from the first match starts at the rating before it: one
  // match is then a line from the start, not a lone dot in an empty box.
  const fromStart = history[0].matches === 1 && history[0].before;
  if (fromStart) points.unshift(point(history[0].before, `Before the first ${unit}: `, "start"));
  return el("div", {},
    lineChart(points, {
      title: `${game} rating history of ${username}`,
      yLabel: "rating (μ − 3σ); band up to μ",
      ...chartSize(),
      height: narrow() ? 240 : 220,
    }),
    chartInWords(points.map((p) => p.label)),
    el("p", { class: "hint" }, (fromStart ? `From the starting rating, each point is a rated ${unit}` : `Each point is a rated ${unit}`)
      + (bot ? ", with the place of every seat the bot held" : "")
      + "; the shaded band reaches up to μ, the skill estimate before the caution margin."
      + (history[0].matches > 1
        ? ` Showing the latest ${history.length} of ${bot ? plural(history[history.length - 1].matches, "rated table") : history[history.length - 1].matches}.`
        : "")));
}

// A house bot may hold several seats of one table: its figures count each
// seat as a match (as docs/stats.md's one rule says), its rating is updated
// once a table.
const BOT_SEATS = "A house bot can hold several seats of one table. Its statistics count each seat as a match of its own "
  + "(seats played, rated seats); its rating is updated once a table, from every seat's place, so its rated tables can be fewer than its rated seats.";

async function profile() {
  const username = main.dataset.username;
  const [stats, catalogue] = await Promise.all([maybe(`/api/stats/players/${encodeURIComponent(username)}/`), games()]);
  const parts = [];
  if (!stats) {
    parts.push(el("section", { class: "panel" }, emptyState(`${username} has no statistics yet: they appear after the first finished match.`)));
  } else {
    const ratings = stats.ratings || {};
    const rated = Object.keys(ratings).filter((game) => ratings[game]);
    parts.push(el("section", { class: "panel" }, el("h2", {}, "Ratings"),
      rated.length
        ? el("table", { class: "scores", id: "ratings" },
          el("thead", {}, el("tr", {}, ["Game", "Rating", "μ", "σ", "Rated tables"].map((h) => el("th", {}, h)))),
          el("tbody", {}, rated.map((game) => el("tr", {},
            el("th", {}, el("a", { href: `/leaderboards/${game}/` }, (catalogue[game] || { title: game }).title)),
            el("td", {}, fmt(ratings[game].display)), el("td", {}, fmt(ratings[game].mu)),
            el("td", {}, fmt(ratings[game].sigma)), el("td", {}, fmt(ratings[game].matches))))))
        : emptyState("No rated matches yet."),
      rated.length && stats.is_bot ? el("p", { class: "hint", id: "bot-seats" }, BOT_SEATS) : null));
    for (const game of rated) {
      const box = el("section", { class: "panel rating-history", dataset: { game } },
        el("h2", {}, `${(catalogue[game] || { title: game }).title} rating history`));
      parts.push(box);
      historyChart(username, game, stats.is_bot).then((node) => box.append(node)).catch((err) => box.append(emptyState(err.message)));
    }
    parts.push(...playerGames(stats, catalogue));
  }
  parts.push(await recentTables(username, catalogue));
  if (stats) parts.push(countedNote(stats.computed_through));
  main.replaceChildren(...parts.filter(Boolean));
}

// The latest finished tables this player (or house bot) sat at: every table
// the statistics count for them (/api/stats/players/{name}/tables/, newest
// first: rated or not, and those they left in play, which a bot played on),
// and, from the same answer's `uncounted`, their own latest finished tables
// still being counted (read from their seats: looking among the site's latest
// 100 finished tables missed them on a busy site). A house bot has a row per seat it held: one line
// a table, with every place. The ten tables are ten tables however many seats
// the bot held, so the page reads as many rows as ten tables can have (ten
// times the most seats a game has): 50 rows were 7 tables and one seat of an
// eighth for a bot holding seven seats a table.
const RECENT = 10;

function recentRows(catalogue) {
  const seats = Math.max(1, ...Object.values(catalogue).map((game) => game.max_players || 1));
  return Math.min(500, RECENT * seats);
}

async function recentTables(username, catalogue) {
  const counted = await maybe(`/api/stats/players/${encodeURIComponent(username)}/tables/?page_size=${recentRows(catalogue)}`);
  const byId = new Map();
  // Counted rows first; a table counted between the two reads is in both.
  const rows = [...results(counted), ...((counted && counted.uncounted) || [])];
  for (const row of rows) {
    const known = byId.get(row.table);
    if (known && known.seats.has(row.seat)) continue;
    if (known) {
      known.seats.add(row.seat);
      if (row.place !== null) known.places.push(row.place);
    } else {
      byId.set(row.table, { id: row.table, game: row.game, players: row.players, seats: new Set([row.seat]), places: row.place === null ? [] : [row.place], finished_at: row.finished_at, left: row.left });
    }
  }
  const mine = [...byId.values()]
    .sort((a, b) => Date.parse(b.finished_at) - Date.parse(a.finished_at) || b.id - a.id)
    .slice(0, RECENT);
  const tableName = (t) => `${(catalogue[t.game] || { title: t.game }).title} #${t.id}`;
  return el("section", { class: "panel", id: "recent-tables" }, el("h2", {}, "Latest finished tables"),
    mine.length
      ? el("ul", { class: "tables" }, mine.map((t) => el("li", { class: "table-row", dataset: { table: t.id } },
        el("span", {}, tableName(t),
          t.places.length ? ` · ${placesText(t.places)}${t.players ? ` of ${t.players}` : ""}` : "",
          t.left ? " · left, a bot played on" : "", ` · ${timeAgo(t.finished_at)}`),
        el("span", { class: "table-actions" },
          // Named with their table: a screen reader's list of links read ten
          // "result" and ten "replay", none saying which.
          el("a", { href: `/tables/${t.id}/`, "aria-label": `result of ${tableName(t)}` }, "result"), " · ",
          el("a", { href: `/tables/${t.id}/replay/`, "aria-label": `replay of ${tableName(t)}` }, "replay")))))
      : emptyState("No finished tables yet."));
}

// The leaderboard API is paged (50 a page): the page shows the first and
// loads the next on request, saying how many players there are in all.
function leaderRow(row) {
  return el("tr", {},
    el("td", {}, String(row.rank)),
    // A long name is cut (seatLabel): it hid the rating's columns past the box's edge.
    el("th", {}, seatLabel(row.username, "a", { href: `/players/${encodeURIComponent(row.username)}/` })),
    el("td", {}, fmt(row.display)), el("td", {}, fmt(row.mu)), el("td", {}, fmt(row.sigma)),
    el("td", {}, fmt(row.matches)));
}

async function leaderboard() {
  const game = main.dataset.game;
  const data = await maybe(`/api/stats/leaderboards/${game}/`);
  const rows = results(data);
  if (!rows.length) {
    main.replaceChildren(el("section", { class: "panel" }, emptyState("No rated players yet: play a rated match to appear here.")));
    return;
  }
  const body = el("tbody", {}, rows.map(leaderRow));
  const under = pager({ data, list: body, row: leaderRow, noun: "rated player", name: "leaderboard", more: "Show more players" });
  main.replaceChildren(el("section", { class: "panel" }, scrollBox("Leaderboard", el("table", { class: "scores", id: "leaderboard" },
    el("thead", {}, el("tr", {}, ["#", "Player", "Rating", "μ", "σ", "Rated tables"].map((h) => el("th", {}, h)))),
    body)), ...under,
    el("p", { class: "hint", id: "leaderboard-tables" }, "Rated tables: the rated tables a rating was updated at. "
      + "A house bot holding several seats of one table is rated once for it; its profile's statistics count each seat as a match.")));
}

async function gameStats() {
  const game = main.dataset.game;
  const data = await maybe(`/api/stats/games/${game}/`);
  if (!data) {
    main.replaceChildren(el("section", { class: "panel" }, emptyState("No statistics yet: they appear once matches of this game have finished.")));
    return;
  }
  if (!data.matches) {
    main.replaceChildren(el("section", { class: "panel" }, emptyState("No finished matches yet.")), countedNote(data.computed_through) || "");
    return;
  }
  const headline = ["matches", "rated_matches", "average_moves", "average_minutes", "timeouts"];
  const totals = Object.entries(data.totals || {}).filter(([, value]) => typeof value === "number");
  main.replaceChildren(...[
    el("div", { class: "stats-grid" }, headline.filter((key) => key in data).map((key) => tile(key, data[key], game))),
    firstPlayerTable(data.first_player),
    totals.length
      ? totalsChart(ordered(totals).map(([key, value]) => ({ label: (TOTAL_LABELS[game] || {})[key] || labelOf(key, game), value })),
        `${data.title || game}: totals over every match`)
      : null,
    countedNote(data.computed_through),
  ].filter(Boolean));
}

// The game's totals, charted, and the same figures in words under the chart.
function totalsChart(bars, title) {
  return el("section", { class: "panel" }, el("h2", {}, "Over every match"),
    barChart(bars, { title, ...chartSize() }),
    chartInWords(bars.map((bar) => `${bar.label}: ${fmt(bar.value)}`)));
}

const run = { player: profile, leaderboard, "game-stats": gameStats }[page];
if (run) {
  run().catch((err) => main.replaceChildren(emptyState(err.message)));
}
