// Alkort: the trick on the table at each player's place, tricks won per side,
// the stock exchange, the partner reveal and the match score towards the
// target. Seats sit around the table with the viewer at the bottom.
import { el } from "../api.js";
import { cardName, cardText } from "../cards.js";
import {
  actionButton, cardButton, faceDownRow, legalOf, listNames, marked, nameWithTags, resultTable, scoreTable, seatLabel,
  waitingFor, withNames,
} from "./common.js";

const KINDS = { muk: "muk (the first five tricks)", stroke: "a stroke", simple: "a simple win" };
// The same, short, for the deals table.
const KIND_NAMES = { muk: "muk", stroke: "stroke", simple: "simple win" };

export function sideName(ctx, side) {
  const v = ctx.view;
  if (v.players === 2) return ctx.names(v.sides[side][0]);
  const name = side === 0 ? "North–South" : "East–West";
  return ctx.seat !== null && ctx.seat !== undefined && v.sides[side].includes(ctx.seat)
    ? `${name} (your side)` : name;
}

// A side's verb: one player "wins", a partnership "win".
function verb(ctx, word) {
  return ctx.view.players === 2 ? `${word}s` : word;
}

function sideOf(v, seat) {
  return v.sides.findIndex((seats) => seats.includes(seat));
}

function places(ctx) {
  const v = ctx.view;
  const me = ctx.seat === null ? 0 : ctx.seat;
  if (v.players === 2) return { bottom: me, top: (me + 1) % 2 };
  return { bottom: me, left: (me + 1) % 4, top: (me + 2) % 4, right: (me + 3) % 4 };
}

function playerBox(ctx, seat, where) {
  const v = ctx.view;
  const played = v.trick.find((entry) => entry.seat === seat);
  const tags = [];
  if (seat === v.dealer) tags.push(el("span", { class: "tag" }, "dealer"));
  if (v.players === 4 && ctx.seat !== null && seat === (ctx.seat + 2) % 4) tags.push(el("span", { class: "tag" }, "partner"));
  const open = ctx.view.hands && ctx.view.hands[seat];
  const backs = where === "bottom" && ctx.seat !== null ? null
    : open ? el("div", { class: "cards-row small fan" }, open.map((c) => cardButton(c)))
      : faceDownRow(v.hand_sizes[seat], "cards-row small fan");
  const winning = played && v.winning === seat;
  return el("div", {
    class: `spot spot-${where}${v.to_act.includes(seat) ? " to-act" : ""}`, dataset: { seat },
    role: "group", "aria-label": ctx.names(seat),
  },
    el("div", { class: "opp-name" }, nameWithTags(ctx.names(seat), tags)),
    backs,
    el("div", { class: "opp-points" }, `${v.tricks_won.seats[seat]} trick${v.tricks_won.seats[seat] === 1 ? "" : "s"}`),
    el("div", { class: `trick-card${winning ? " winning" : ""}` },
      // The ring around the winning card, in words too.
      played ? cardButton(played.card, {
        label: `played ${cardName(played.card)}${winning ? ", winning the trick so far" : ""}`,
      }) : null));
}

function scoreboard(ctx) {
  const v = ctx.view;
  return el("div", { class: "scoreboard" }, [0, 1].map((side) => el("div", { class: "side-score" },
    // Two players: the side is a person, named on one line like every seat.
    ctx.view.players === 2 ? seatLabel(sideName(ctx, side), "strong") : el("strong", {}, sideName(ctx, side)),
    // "3 / 10" read as "3 slash 10", beside the tricks' number: said in words.
    el("span", { class: "points" },
      el("span", { class: "big" }, `${v.scores[side]}`),
      el("span", { class: "muted", "aria-hidden": "true" }, ` / ${v.target}`),
      el("span", { class: "visually-hidden" }, ` of ${v.target} points to win the match,`)),
    el("div", { class: "meter" }, el("span", { style: `width:${Math.min(100, (100 * v.scores[side]) / v.target)}%` })),
    el("span", { class: "muted" }, `${v.tricks_won.sides[side]} trick${v.tricks_won.sides[side] === 1 ? "" : "s"} this deal`))));
}

function exchangeInfo(ctx) {
  const v = ctx.view;
  const lines = [];
  if (v.phase === "exchange") {
    lines.push(el("p", {}, "Stock exchange: a player whose hand cannot beat a low eight may keep one card and swap the rest with the stock."));
  }
  const ex = v.exchange;
  if (ex && ex.exchanger !== null && ex.shown) {
    // Names cut as in the turn bar (withNames): a long one wrapped over lines.
    lines.push(el("div", {}, el("p", {}, withNames(`${marked(ctx).names(ex.exchanger)} exchanged with the stock, showing:`)),
      el("div", { class: "cards-row small" }, ex.shown.map((c) => cardButton(c)))));
    if (ex.kept) lines.push(el("p", {}, `You kept ${cardText(ex.kept)} and took ${(ex.taken || []).map(cardText).join(" ")}.`));
  }
  if (v.reveal) {
    const partner = marked(ctx).names(v.reveal.partner);
    lines.push(el("p", { class: "reveal" }, "Partner reveal: you showed ",
      v.reveal.shown ? cardText(v.reveal.shown) : "nothing", "; ", ...withNames(`${partner} showed you `),
      v.reveal.received ? cardText(v.reveal.received) : "nothing (no high card)", "."));
  }
  return lines.length ? el("div", { class: "info" }, lines) : null;
}

function board(ctx) {
  const v = ctx.view;
  const spots = places(ctx);
  const plays = legalOf(ctx, "play");
  const keeps = legalOf(ctx, "exchange");
  const playable = new Map(plays.map((a) => [a.card, a]));
  const keepable = new Map(keeps.map((a) => [a.keep, a]));
  const felt = el("div", { class: `felt alkort-felt p${v.players}` },
    ...Object.entries(spots).map(([where, seat]) => playerBox(ctx, seat, where)),
    el("div", { class: "felt-centre" }, v.trick.length ? "" : v.phase === "exchange" ? "Exchange"
      : v.outcome || v.tricks.length >= 9 ? "" : `Trick ${v.tricks.length + 1}`));
  const parts = [scoreboard(ctx), felt];
  const info = exchangeInfo(ctx);
  if (info) parts.push(info);
  if (v.hand) {
    parts.push(el("div", { class: "cards-row hand", role: "group", "aria-label": "Your hand" }, v.hand.map((card) => {
      const play = playable.get(card);
      const keep = keepable.get(card);
      const action = play || keep;
      return cardButton(card, {
        key: `hand-${card}`,
        does: play ? "play" : keep ? "keep it, exchange the rest" : undefined,
        onpick: action ? () => ctx.act(action) : null,
        extraClass: action ? "target" : "",
      });
    })));
  }
  const actions = [];
  let hint = waitingFor(ctx);
  if (v.phase === "exchange" && ctx.legal.length) {
    actions.push(actionButton(ctx, "Keep my hand (pass)", { type: "pass" }, { key: "pass", primary: true }));
    hint = keeps.length
      ? "Your hand is weak: pick the one card to keep and exchange the rest, or keep your hand."
      : "Your hand is too strong to exchange: keep it.";
  } else if (plays.length) {
    hint = v.trick.length ? `Play a card to trick ${v.tricks.length + 1}.` : `Lead trick ${v.tricks.length + 1}.`;
  }
  const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  if (last) {
    parts.push(el("details", { class: "last-trick" },
      el("summary", {}, withNames(`Last trick: ${marked(ctx).names(last.winner)} won it`)),
      el("div", { class: "cards-row small" }, last.cards.map((c) => cardButton(c)))));
  }
  parts.push(el("p", { class: "hint", id: "action-hint" }, withNames(hint)), el("div", { class: "actions" }, actions));
  return el("div", { class: "alkort" }, parts);
}

function status(ctx) {
  const v = ctx.view;
  const where = v.phase === "exchange" ? "stock exchange" : `trick ${Math.min(9, v.tricks.length + 1)} of 9`;
  if (ctx.legal.length) return `Your turn — deal ${v.deal}, ${where}.`;
  return `${v.to_act.map((s) => ctx.names(s)).join(", ")} to play — deal ${v.deal}, ${where}.`;
}

function describe(event, ctx) {
  const p = event.payload;
  const v = ctx.view;
  switch (event.type) {
    case "alkort.cards_dealt": return `Deal ${p.deal}: ${ctx.names(p.dealer)} deals, ${ctx.names(p.forehand)} leads.`;
    case "alkort.exchange_passed": return `${ctx.names(p.seat)} kept their hand.`;
    case "alkort.stock_exchanged": return `${ctx.names(p.seat)} exchanged with the stock${p.keep ? `, keeping ${cardText(p.keep)}` : ""}.`;
    case "alkort.partners_revealed": {
      const mine = p.reveals.filter((r) => "card" in r && r.partner === ctx.seat);
      const shown = mine.map((r) => `${ctx.names(r.seat)} showed ${r.card ? cardText(r.card) : "nothing"}`);
      return `Partners revealed a card to each other${shown.length ? `: ${shown.join("; ")}` : ""}.`;
    }
    case "alkort.card_played": return `${ctx.names(p.seat)} played ${cardText(p.card)}.`;
    case "alkort.trick_won": {
      const side = v && v.players === 4 ? ` for ${sideName(ctx, p.side)}` : "";
      return `Trick ${p.trick} to ${ctx.names(p.seat)}${side}.`;
    }
    case "alkort.deal_scored": return `Deal ${p.deal}: ${sideName(ctx, p.side)} ${verb(ctx, "score")} ${p.points} for ${KINDS[p.kind] || p.kind}; tricks ${p.tricks.join("–")}; match ${p.scores.join("–")}.`;
    case "alkort.match_ended": return `Match over: ${winnersLine(ctx, p.outcome)}`;
    default: return null;
  }
}

function seatInfo(ctx, seat) {
  const v = ctx.view;
  return `${v.scores[sideOf(v, seat)]}/${v.target}`;
}

function summary(ctx) {
  const results = ctx.view.results;
  if (!results.length) return null;
  const node = el("div", {}, scoreTable(["Deal", "Won by", "Points", "Tricks"], results.slice().reverse().map((r) => [
    String(r.deal), seatLabel(sideName(ctx, r.side)), `${r.points} · ${KIND_NAMES[r.kind] || r.kind}`, r.tricks.join("–"),
  ])));
  node.dataset.title = "Deals";
  return node;
}

function outcomeLine(ctx) {
  const o = ctx.view.outcome;
  const side = sideOf(ctx.view, o.winners[0]);
  const scores = ctx.view.scores;
  return `${sideName(ctx, side)} ${verb(ctx, "win")}, ${scores[side]}–${scores[1 - side]}.`;
}

// Who won, as a player says it: a side of two partners wins together (not
// "share the win" as rivals would), named as the scoreboard names it.
function winnersLine(ctx, outcome) {
  const v = ctx.view;
  const names = outcome.winners.map((s) => ctx.names(s));
  if (!v || v.players !== 4 || outcome.winners.length !== 2) return `${listNames(names)} ${names.length > 1 ? "win" : "wins"}.`;
  const side = sideOf(v, outcome.winners[0]);
  const name = side === 0 ? "North–South" : "East–West";
  return `${name} win: ${names.join(" & ")} (partners).`;
}

function result(ctx) {
  // Two players are no sides: their column is just the points.
  const node = resultTable(ctx, ctx.view.players === 4 ? "Side's points" : "Points");
  node.querySelector(".result-line").replaceChildren(...withNames(winnersLine(marked(ctx), ctx.view.outcome)));
  return node;
}

export default { board, status, describe, seatInfo, summary, outcomeLine, result };
