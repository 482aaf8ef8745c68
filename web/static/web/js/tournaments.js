// Tournaments: the list, and one tournament's entries, standings and rounds
// with links to their tables (/api/tournaments/…, docs/tournaments.md,
// "Players' API"). A person registers or withdraws here while registration
// is open; organisers run everything else from the admin.
import { api, currentUser, el, emptyState, games, pager, plural, results, scrollBox, showError } from "./api.js";
import { markInvalid } from "./forms.js";
import { seatLabel } from "./games/common.js";

const root = document.getElementById("tournaments-root");
const id = root.dataset.tournament;

const STATUS = { registration: "Registration open", running: "Running", finished: "Finished" };
const FORMAT = { swiss: "Swiss", round_robin: "Round robin" };


function number(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function ordinal(place) {
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[place % 10] || "th");
  return `${place}${suffix}`;
}

// "Alkort · Swiss · 3 rounds · 2-player tables · 30 s a move · rated", from the
// set-up (the clock as the lobby names a table's).
function setUp(t, catalogue) {
  return [
    (catalogue[t.game] || { title: t.game }).title,
    FORMAT[t.format] || t.format,
    t.round_count ? plural(t.round_count, "round") : null,
    t.table_size ? `${t.table_size}-player tables` : null,
    t.time_control ? `${t.time_control}\u00a0s a move` : null, // "1 s" kept on one line
    t.rated ? "rated" : null,
    t.team_event ? "teams" : null,
  ].filter(Boolean).join(" · ");
}

// "5 players", or "5 of 8 places taken" when the organiser set a limit.
function entrants(count, places) {
  if (places === null || places === undefined) return plural(count, "player");
  return `${count} of ${places} places taken`;
}

// Whether every place of a limited tournament is taken.
function isFull(t, count) {
  return t.max_entries !== null && t.max_entries !== undefined && count >= t.max_entries;
}

function statusTag(status) {
  return el("span", { class: `tag status-${status}` }, STATUS[status] || status);
}

async function list() {
  let data;
  try {
    data = await api("/api/tournaments/");
  } catch (err) {
    if (err.status === 404) {
      root.replaceChildren(el("section", { class: "panel" }, emptyState("No tournaments yet: organisers create them in the admin.")));
      return;
    }
    throw err;
  }
  const catalogue = await games();
  const rows = results(data);
  if (!rows.length) {
    root.replaceChildren(el("section", { class: "panel" }, emptyState("No tournaments yet: organisers create them in the admin.")));
    return;
  }
  const row = (t) => el("li", { class: "table-row" },
    el("div", {},
      el("a", { href: `/tournaments/${t.id}/` }, el("strong", {}, t.name)), statusTag(t.status),
      el("div", { class: "muted" }, setUp(t, catalogue))),
    el("span", { class: "muted" }, t.entries_count === null || t.entries_count === undefined ? "" : entrants(t.entries_count, t.max_entries)));
  // The API is paged (20 a page, newest first): the rest on request, as the
  // leaderboard does, saying how many there are in all.
  const listed = el("ul", { class: "tables", id: "tournament-list" }, rows.map(row));
  // A list that fits one page needs no count.
  const under = pager({ data, list: listed, row, noun: "tournament", name: "tournaments", more: "Show more tournaments", whole: false });
  root.replaceChildren(el("section", { class: "panel" }, listed, ...under));
}

// A name in the standings, the rounds' tables and the entries, on one line: a
// long one is cut with an ellipsis, whole in its title (seatLabel). It hid the points'
// columns past the standings' edge and took four lines of a round's table.
function playerCut(name) {
  return seatLabel(name, "a", { href: `/players/${encodeURIComponent(name)}/` });
}

function entriesPanel(t) {
  const entries = results(t.entries || []).filter((e) => !e.withdrawn);
  const count = t.max_entries === null || t.max_entries === undefined ? String(entries.length) : entrants(entries.length, t.max_entries);
  return el("section", { class: "panel" }, el("h2", {}, `Registered (${count})`),
    entries.length
      ? el("ol", { class: "entries", id: "entries" }, entries.map((e) => el("li", {},
        playerCut(e.username), e.team ? el("span", { class: "muted" }, " · ", resultName(e.team)) : null)))
      : emptyState("Nobody has registered yet."));
}

// The standings; the signed-in player's line (``me``) is tinted and tagged
// *you*, so they find where they stand without reading every name.
function standingsTable(t, me) {
  const standings = results(t.standings || []);
  if (!standings.length) return emptyState("Standings appear once the first round has started.");
  const columns = [
    ["Points", (s) => number(s.points)],
    ["Buchholz", (s) => number(s.buchholz)],
    ["Game score", (s) => number(s.game_score)],
    ["Played", (s) => String(s.played)],
    ["Wins", (s) => String(s.wins)],
  ];
  if (standings.some((s) => s.byes)) columns.push(["Byes", (s) => String(s.byes)]);
  const team = Boolean(t.team_event);
  // A team's name as the podium writes it (resultName): whole words only.
  // On a phone it stands under the player's name, the Team column hidden
  // (CSS): beside it, it was cut by the box's edge ("The Extraordinaril").
  const teamName = (s) => (s.team ? resultName(s.team) : "—");
  return scrollBox("Standings", el("table", { class: `scores standings${team ? " team-event" : ""}`, id: "standings" },
    el("thead", {}, el("tr", {},
      el("th", { class: "num" }, "#"), el("th", {}, "Player"), team ? el("th", { class: "team" }, "Team") : null,
      columns.map(([h]) => el("th", { class: "num" }, h)))),
    el("tbody", {}, standings.map((s) => {
      const mine = Boolean(me) && s.username === me;
      return el("tr", { class: [s.withdrawn ? "withdrawn" : "", mine ? "mine" : ""].join(" ").trim() || null, "aria-current": mine ? "true" : null },
      el("td", { class: "num" }, String(s.rank)),
      el("th", { class: "standing-name" },
        el("span", { class: "standing-player" }, playerCut(s.username), mine ? [" ", el("span", { class: "you" }, "you")] : null,
          s.withdrawn ? [" ", el("span", { class: "tag warn" }, "withdrawn")] : null),
        team ? el("span", { class: "standing-team muted" }, teamName(s)) : null),
      team ? el("td", { class: "team" }, teamName(s)) : null,
      ...columns.map(([, value]) => el("td", { class: "num" }, value(s))));
    }))));
}

// A finished tournament's result, drawn: the winner (or winning team) and a
// podium of the top three, from the standings as they stand (their ranks and
// tie-breaks: a tie shares its step, and a place nobody holds, as 2nd after
// two shared firsts, has no step). In a team event each step names the team,
// with its players under it; the standings already rank teams there
// (partners share their team's place, the next team is 2nd).
function podiumSteps(t) {
  const team = Boolean(t.team_event);
  const steps = new Map();
  for (const s of results(t.standings || [])) {
    if (s.rank > 3) continue;
    if (!steps.has(s.rank)) steps.set(s.rank, new Map());
    const key = team && s.team ? s.team : s.username;
    const names = steps.get(s.rank);
    if (!names.has(key)) names.set(key, []);
    names.get(key).push(s.username);
  }
  return [...steps.entries()].sort(([a], [b]) => a - b)
    .map(([rank, names]) => ({ rank, names: [...names.entries()].map(([name, players]) => ({ name, players })) }));
}

// A name in the result (a podium step, the winner's line): it wraps only
// between its words, each word a box of its own kept on one line, and a word
// too long for the line (a long username) is cut with an ellipsis (CSS). The
// whole name is in the title and in the text a screen reader reads. A
// phone's step is a third of the screen: names wrapped inside a word there.
function resultName(name, tag = "span", attrs = {}) {
  const words = name.split(/\s+/).filter(Boolean);
  return el(tag, { ...attrs, class: "result-name", title: name },
    words.map((word, i) => [i ? " " : null, el("span", { class: "result-word" }, word)]).flat());
}

function resultPlayer(name) {
  return resultName(name, "a", { href: `/players/${encodeURIComponent(name)}/` });
}

// Players' names as "a, b and c", each one a result name.
function andNames(names) {
  return names.flatMap((name, i) => [i ? (i === names.length - 1 ? " and " : ", ") : null, resultName(name)]);
}

function podiumPanel(t) {
  if (t.status !== "finished") return null;
  const steps = podiumSteps(t);
  if (!steps.length || steps[0].rank !== 1) return null;
  const team = Boolean(t.team_event);
  const first = steps[0].names;
  const shared = first.length > 1;
  const winner = el("p", { class: "winner", id: "winner" },
    el("span", { class: "trophy", "aria-hidden": "true" }),
    el("span", {},
      team ? (shared ? "Winning teams (shared first place): " : "Winning team: ") : (shared ? "Winners (shared first place): " : "Winner: "),
      ...first.flatMap((w, i) => [
        i ? (i === first.length - 1 ? " and " : ", ") : null,
        team ? el("strong", {}, resultName(w.name)) : el("strong", {}, resultPlayer(w.name)),
        team ? el("span", { class: "muted" }, " (", andNames(w.players), ")") : null,
      ])));
  const step = ({ rank, names }) => el("li", { class: `podium-step place-${rank}`, "data-place": String(rank) },
    el("ul", { class: "podium-names" }, names.map((n) => el("li", { class: "podium-name", "data-name": n.name },
      team ? [el("strong", {}, resultName(n.name)),
        el("span", { class: "podium-players" }, n.players.flatMap((p, i) => (i ? [" & ", resultPlayer(p)] : [resultPlayer(p)])))]
        : resultPlayer(n.name)))),
    el("div", { class: "podium-block" }, el("span", { class: "podium-place" }, ordinal(rank))));
  return el("section", { class: "panel result-panel", id: "podium", "aria-labelledby": "podium-h" },
    el("h2", { id: "podium-h" }, "Result"),
    winner,
    el("ol", { class: "podium", "aria-label": "Podium" }, steps.map(step),
      // A place nobody holds (2nd after a shared 1st) keeps its room, empty,
      // so the first step stays in the middle.
      [2, 3].filter((rank) => !steps.some((st) => st.rank === rank))
        .map((rank) => el("li", { class: `podium-gap place-${rank}`, "aria-hidden": "true" }))));
}

// One seat of a round's table: the person, or the house bot that filled it,
// with its place once the match is over.
function seatText(seat, outcome) {
  const who = seat.is_bot ? el("span", { class: "muted" }, `${seat.bot_level || "house"} bot`) : playerCut(seat.username);
  const place = outcome && outcome.places ? outcome.places[seat.seat] : null;
  return el("span", { class: "seat" }, who, place ? el("span", { class: "muted" }, ` ${ordinal(place)}`) : null);
}

function roundsList(t) {
  const rounds = results(t.rounds || []);
  if (!rounds.length) return emptyState("No rounds yet: the organiser seats the first once registration closes.");
  return el("ol", { class: "rounds", id: "rounds", reversed: true }, [...rounds].reverse().map((round) => el("li", {},
    el("strong", {}, `Round ${round.number}`), el("span", { class: "muted" }, ` · ${round.status}`),
    el("ul", { class: "round-tables" }, round.tables.map((table) => el("li", {},
      table.table ? el("a", { href: `/tables/${table.table}/` }, `Table #${table.table}`) : `Table ${table.number}`, " ",
      table.seats.flatMap((seat, i) => (i ? [" vs ", seatText(seat, table.outcome)] : [seatText(seat, table.outcome)])),
      table.status ? el("span", { class: "muted" }, ` (${table.status})`) : null,
      table.status === "finished" && table.table ? [" ", el("a", { href: `/tables/${table.table}/replay/` }, "replay")] : null))),
    round.byes && round.byes.length
      ? el("p", { class: "hint" }, "Bye: ", round.byes.flatMap((name, i) => (i ? [", ", playerCut(name)] : [playerCut(name)])))
      : null)));
}

// Where the signed-in player plays in the round under way: a link to their
// table (found otherwise only by reading every table's names), or their bye.
function yourTable(t, me) {
  if (!me || t.status !== "running") return null;
  const rounds = results(t.rounds || []);
  const round = rounds.reduce((last, r) => (!last || r.number > last.number ? r : last), null);
  if (!round || round.status === "finished") return null;
  const notice = (...children) => el("p", { class: "panel", id: "your-table", role: "status" }, ...children);
  if ((round.byes || []).includes(me)) return notice(`You have a bye in round ${round.number}.`);
  const table = round.tables.find((tb) => tb.seats.some((seat) => seat.username === me));
  if (!table) return null;
  if (!table.table) return notice(`Round ${round.number} is seated: you play at table ${table.number} once the organiser starts it.`);
  if (table.status !== "playing") return null;
  return notice(`Round ${round.number} is in play. `,
    el("a", { href: `/tables/${table.table}/`, class: "button" }, `Play at table #${table.table}`));
}

// How often an open or running tournament's page reads it again (as the
// lobby does its tables): a player waiting there sees their round start, and
// the standings move as tables finish, without reloading.
const REFRESH_MS = 5000;
const LIVE = ["registration", "running"];
// The tournament as last shown (its JSON), so an unchanged answer redraws nothing.
let shown = null;
// The games' titles, read once for the set-up line.
let catalogue = {};

async function detail({ quiet = false } = {}) {
  let t;
  try {
    t = await api(`/api/tournaments/${id}/`);
  } catch (err) {
    if (quiet) return; // a refresh that failed: keep the page as it is
    if (err.status === 404) {
      root.replaceChildren(el("h1", {}, "Tournament"), el("section", { class: "panel" }, emptyState("This tournament does not exist (yet).")));
      return;
    }
    throw err;
  }
  const seen = JSON.stringify(t);
  if (quiet) {
    // Nothing new, or a team name being typed: leave the page alone (the
    // next refresh, or the person's own Register, shows the change).
    const team = root.querySelector("#register-form input[name=team]");
    if (seen === shown || (team && (team.value || document.activeElement === team))) return;
  }
  shown = seen;
  render(t);
}

// What the keyboard was on, so a redraw can put it back: the element's tag,
// link, id and text (a redraw builds new nodes; an equal one is the same control).
function focusKey(node) {
  if (!node || node === document.body || !root.contains(node)) return null;
  return [node.tagName, node.getAttribute("href"), node.id, node.textContent].join("\u0000");
}

function focusRestore(key) {
  if (key === null) return;
  const again = [...root.querySelectorAll("a, button, input, select, textarea, [tabindex]")]
    .find((node) => focusKey(node) === key);
  if (again) again.focus({ preventScroll: true });
}

function render(t) {
  // The page is drawn anew: the keyboard stays where it was.
  const focused = focusKey(document.activeElement);
  draw(t);
  focusRestore(focused);
}

function draw(t) {
  document.title = `${t.name} · Cardroom`;
  const error = el("p", { class: "form-error", id: "tournament-error", role: "alert", hidden: true });
  const me = currentUser();
  let form = null;
  const call = async (path, body = {}) => {
    try {
      await api(`/api/tournaments/${id}/${path}/`, { method: "POST", body });
      await detail();
    } catch (err) {
      showError(error, err.message);
      // A refusal about the team (none given, too long, already full) points at its field.
      const aboutTeam = ["team_required", "team_full"].includes(err.code)
        || Boolean(err.body && err.body.errors && err.body.errors.team);
      if (form) markInvalid(form, error, aboutTeam ? ["team"] : []);
    }
  };
  let actions = null;
  if (t.status === "registration") {
    const entered = results(t.entries || []).some((e) => e.username === me && !e.withdrawn);
    const taken = results(t.entries || []).filter((e) => !e.withdrawn).length;
    if (!entered && isFull(t, taken)) {
      // Registering would be refused (tournament_full): say so instead.
      actions = el("p", { class: "hint", id: "tournament-full" }, `The tournament is full: all ${t.max_entries} places are taken.`);
    } else if (me && !entered && t.team_event) {
      // A team event: players enter in pairs, each naming the same team.
      form = el("form", {
        id: "register-form", novalidate: true,
        onsubmit: (event) => {
          event.preventDefault();
          call("register", { team: form.elements.team.value });
        },
      },
      el("div", { class: "row" },
        el("label", {}, "Team", el("input", { name: "team", maxlength: "64", autocomplete: "off", "aria-describedby": "team-hint" })),
        el("button", { type: "submit", class: "button" }, "Register")),
      el("p", { class: "hint", id: "team-hint" }, "Two players make a team: both register with the same team name."));
      actions = form;
    } else {
      actions = el("div", { class: "row" }, me
        ? (entered
          ? el("button", { type: "button", class: "button ghost", onclick: () => call("withdraw") }, "Withdraw")
          : el("button", { type: "button", class: "button", onclick: () => call("register") }, "Register"))
        : el("p", { class: "hint" }, el("a", { href: `/accounts/login/?next=/tournaments/${id}/` }, "Log in"), " to register."));
    }
  }
  root.replaceChildren(...[
    el("h1", {}, t.name, " ", statusTag(t.status)),
    el("p", { class: "muted" }, setUp(t, catalogue)),
    error,
    actions,
    yourTable(t, me),
    podiumPanel(t),
    t.status === "registration" ? entriesPanel(t) : null,
    // Before the first round there is nothing to stand on or play.
    ...(t.status === "registration" && !results(t.rounds || []).length ? [] : [
      el("section", { class: "panel" }, el("h2", {}, "Standings"), standingsTable(t, me)),
      el("section", { class: "panel" }, el("h2", {}, "Rounds"), roundsList(t)),
    ]),
  ].filter(Boolean));
}

async function follow() {
  catalogue = await games();
  await detail();
  setInterval(() => {
    const status = shown && JSON.parse(shown).status;
    if (!document.hidden && LIVE.includes(status)) detail({ quiet: true });
  }, REFRESH_MS);
}

(id ? follow() : list()).catch((err) => root.replaceChildren(emptyState(err.message)));
