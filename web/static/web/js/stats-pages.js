// Player profiles, leaderboards and per-game statistics, read from the stats
// API (/api/stats/…, docs/api.md). A 404 from an API that is not there yet
// (or a player with no rated match) shows a friendly empty state.
import { api, el, games, timeAgo } from "./api.js";
import { barChart, lineChart } from "./chart.js";

const page = document.body.dataset.page;
const main = document.getElementById("stats-root");

function results(data) {
  if (Array.isArray(data)) return data;
  if (data && Array.isArray(data.results)) return data.results;
  return [];
}

function emptyState(text) {
  return el("p", { class: "empty" }, text);
}

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

// Numbers become tiles, {key: number} maps become bar charts, the rest is skipped.
function genericStats(data, skip = []) {
  const tiles = [];
  const charts = [];
  for (const [key, value] of Object.entries(data || {})) {
    if (skip.includes(key)) continue;
    if (typeof value === "number") {
      tiles.push(el("div", { class: "panel compact" }, el("div", { class: "muted" }, titleOf(key)), el("div", { class: "stat" }, fmt(value))));
    } else if (value && typeof value === "object" && !Array.isArray(value)) {
      const bars = Object.entries(value).filter(([, v]) => typeof v === "number").map(([label, v]) => ({ label: titleOf(label), value: v }));
      if (bars.length) charts.push(el("section", { class: "panel" }, el("h2", {}, titleOf(key)), barChart(bars, { title: titleOf(key) })));
    }
  }
  return [tiles.length ? el("div", { class: "stats-grid" }, tiles) : null, ...charts];
}

async function historyChart(username, game) {
  const history = results(await maybe(`/api/stats/players/${encodeURIComponent(username)}/ratings/${game}/`));
  if (!history.length) return emptyState("No rated matches yet.");
  const points = history.map((entry, i) => {
    const mu = entry.after.mu;
    const sigma = entry.after.sigma;
    return {
      y: mu - 3 * sigma, low: mu - 3 * sigma, high: mu,
      label: `Table ${entry.table}: place ${entry.place}, rating ${(mu - 3 * sigma).toFixed(2)} (μ ${mu.toFixed(2)}, σ ${sigma.toFixed(2)})`,
      axis: i === 0 ? "first match" : `${history.length} matches`,
    };
  });
  return el("div", {},
    lineChart(points, { title: `${game} rating history of ${username}`, yLabel: "rating (μ − 3σ); band up to μ" }),
    el("p", { class: "hint" }, "Each point is a rated match; the shaded band reaches up to μ, the skill estimate before the caution margin."));
}

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
          el("thead", {}, el("tr", {}, ["Game", "Rating", "μ", "σ", "Matches"].map((h) => el("th", {}, h)))),
          el("tbody", {}, rated.map((game) => el("tr", {},
            el("th", {}, el("a", { href: `/leaderboards/${game}/` }, (catalogue[game] || { title: game }).title)),
            el("td", {}, fmt(ratings[game].display)), el("td", {}, fmt(ratings[game].mu)),
            el("td", {}, fmt(ratings[game].sigma)), el("td", {}, fmt(ratings[game].matches))))))
        : emptyState("No rated matches yet.")));
    for (const game of rated) {
      const box = el("section", { class: "panel rating-history", dataset: { game } },
        el("h2", {}, `${(catalogue[game] || { title: game }).title} rating history`));
      parts.push(box);
      historyChart(username, game).then((node) => box.append(node)).catch((err) => box.append(emptyState(err.message)));
    }
    const recent = results(stats.recent || stats.recent_matches || stats.recent_tables || []);
    if (recent.length) {
      parts.push(el("section", { class: "panel" }, el("h2", {}, "Recent matches"),
        el("ul", { class: "tables" }, recent.map((m) => el("li", { class: "table-row" },
          el("span", {}, `${(catalogue[m.game] || { title: m.game || "" }).title} #${m.table ?? m.id}`,
            m.place ? ` · place ${m.place}` : "", m.finished_at ? ` · ${timeAgo(m.finished_at)}` : ""),
          el("a", { href: `/tables/${m.table ?? m.id}/replay/` }, "replay"))))));
    }
    parts.push(...genericStats(stats, ["ratings", "recent", "recent_matches", "recent_tables", "id"]));
  }
  parts.push(await recentTables(username, catalogue));
  main.replaceChildren(...parts.filter(Boolean));
}

async function recentTables(username, catalogue) {
  // Finished tables this player sat at, from the tables API.
  const page = await maybe("/api/tables/?status=finished&page_size=100");
  const mine = results(page).filter((t) => t.seats.some((s) => s.username === username && !s.is_bot)).slice(0, 10);
  return el("section", { class: "panel", id: "recent-tables" }, el("h2", {}, "Latest finished tables"),
    mine.length
      ? el("ul", { class: "tables" }, mine.map((t) => {
        const seat = t.seats.find((s) => s.username === username);
        const place = t.outcome ? t.outcome.places[seat.seat] : null;
        return el("li", { class: "table-row" },
          el("span", {}, `${(catalogue[t.game] || { title: t.game }).title} #${t.id}`, place ? ` · place ${place} of ${t.players}` : "", ` · ${timeAgo(t.finished_at)}`),
          el("span", { class: "table-actions" },
            el("a", { href: `/tables/${t.id}/` }, "result"), " · ", el("a", { href: `/tables/${t.id}/replay/` }, "replay")));
      }))
      : emptyState("No finished tables yet."));
}

async function leaderboard() {
  const game = main.dataset.game;
  const data = await maybe(`/api/stats/leaderboards/${game}/`);
  const rows = results(data);
  if (!rows.length) {
    main.replaceChildren(el("section", { class: "panel" }, emptyState("No rated players yet: play a rated match to appear here.")));
    return;
  }
  main.replaceChildren(el("section", { class: "panel" }, el("table", { class: "scores", id: "leaderboard" },
    el("thead", {}, el("tr", {}, ["#", "Player", "Rating", "μ", "σ", "Matches"].map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((row, i) => el("tr", {},
      el("td", {}, String(row.rank ?? i + 1)),
      el("th", {}, el("a", { href: `/players/${encodeURIComponent(row.username)}/` }, row.username)),
      el("td", {}, fmt(row.display)), el("td", {}, fmt(row.mu)), el("td", {}, fmt(row.sigma)),
      el("td", {}, fmt(row.matches))))))));
}

async function gameStats() {
  const game = main.dataset.game;
  const data = await maybe(`/api/stats/games/${game}/`);
  if (!data) {
    main.replaceChildren(el("section", { class: "panel" }, emptyState("No statistics yet: they appear once matches of this game have finished.")));
    return;
  }
  const parts = genericStats(data, ["game", "name"]);
  main.replaceChildren(...parts.filter(Boolean));
  if (!main.children.length) main.append(emptyState("No statistics yet."));
}

const run = { player: profile, leaderboard, "game-stats": gameStats }[page];
if (run) {
  run().catch((err) => main.replaceChildren(emptyState(err.message)));
}
