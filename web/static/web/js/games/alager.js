// Alager: three table cards, the seat's three-card hand, the stock and the
// discard pile; exchange one card (hand card, then a table card or the stock),
// all three, pass ("dál") or knock ("konec"); everyone's penalty points.
import { el, plural } from "../api.js";
import { cardBack, cardName, cardText } from "../cards.js";
import {
  actionButton, cardButton, faceDownRow, legalOf, listNames, nameWithTags, placesText, resultTable, scoreTable,
  marked, seatLabel, waitingFor, withNames,
} from "./common.js";

let selected = null; // the hand card picked for a one-card exchange
let selectedAt = -1; // …at this seq (a new position clears it)
let withKonec = false;

const REASONS = { special: "a special hand", konec: "konec", forced: "the turn limit" };

function kindName(kind) {
  return kind === "hori" ? "Hoří" : "Alager";
}

function opponents(ctx) {
  const v = ctx.view;
  const seats = [];
  for (let i = 1; i <= v.players; i += 1) {
    const seat = ctx.seat === null ? i - 1 : (ctx.seat + i) % v.players;
    if (seat !== ctx.seat) seats.push(seat);
  }
  return el("div", { class: "opponents" }, seats.map((seat) => {
    const out = v.eliminated.includes(seat);
    const tags = [];
    if (seat === v.dealer) tags.push(el("span", { class: "tag" }, "dealer"));
    if (seat === v.knocker) tags.push(el("span", { class: "tag warn" }, "konec"));
    if (out) tags.push(el("span", { class: "tag" }, "out"));
    // Face up only where the view already has the cards: a replay's open
    // view, or the match's last showdown (every hand is shown, §10) once the
    // match is over. Mid-match the board is already the next deal's.
    const shown = ctx.view.hands || (v.outcome && v.last_deal ? v.last_deal.hands : null);
    const handCards = shown ? shown[seat] : null;
    return el("div", {
      class: `opponent${v.to_act.includes(seat) ? " to-act" : ""}`, dataset: { seat },
      role: "group", "aria-label": ctx.names(seat),
    },
    el("div", { class: "opp-name" }, nameWithTags(ctx.names(seat), tags)),
    handCards
      ? el("div", { class: "cards-row small shown-hand", role: "group", "aria-label": `${ctx.names(seat)}'s hand` },
        handCards.map((card) => cardButton(card, { czech: ctx.czech })))
      : faceDownRow(v.hand_sizes[seat]),
    el("div", { class: "opp-points" }, `${v.penalties[seat]} penalty point${v.penalties[seat] === 1 ? "" : "s"}`));
  }));
}

function hidden(node) {
  node.setAttribute("aria-hidden", "true");
  return node;
}

function board(ctx) {
  const v = ctx.view;
  if (selectedAt !== ctx.seq) selected = null;
  const draws = legalOf(ctx, "draw").filter((a) => !a.konec);
  const swaps = legalOf(ctx, "swap").filter((a) => !a.konec);
  const canKonecWith = ctx.legal.some((a) => a.konec);
  const flag = (action) => (withKonec && canKonecWith ? { ...action, konec: true } : action);
  const pick = (card) => () => {
    selected = selected === card ? null : card;
    selectedAt = ctx.seq;
    ctx.redraw();
  };

  const name = (card) => cardName(card, ctx.czech);
  const tableCards = el("div", { class: "cards-row table-cards", role: "group", "aria-label": "Table cards" },
    v.table.map((card) => {
      const swap = selected && swaps.find((a) => a.give === selected && a.take === card);
      return cardButton(card, {
        czech: ctx.czech,
        key: `take-${card}`,
        does: swap ? `swap your ${name(selected)} for it` : undefined,
        onpick: swap ? () => ctx.act(flag(swap)) : null,
        extraClass: swap ? "target" : "",
      });
    }));
  const draw = selected && draws.find((a) => a.discard === selected);
  const top = v.discard_pile.length ? v.discard_pile[v.discard_pile.length - 1] : null;
  const piles = el("div", { class: "piles" },
    el("div", { class: "pile" },
      draw
        ? el("button", {
          type: "button", class: "card-slot pickable target", dataset: { key: "stock" },
          "aria-label": `Discard ${name(selected)} and draw from the stock`,
          onclick: () => ctx.act(flag(draw)),
        }, hidden(cardBack("stock")))
        : el("span", { class: "card-slot" }, cardBack("stock")),
      el("span", { class: "pile-label" }, `stock ${v.stock_count}`)),
    el("div", { class: "pile" },
      top ? cardButton(top, { czech: ctx.czech, label: `top of the discard pile: ${name(top)}` })
        : el("span", { class: "card-slot empty-pile" }),
      el("span", { class: "pile-label" }, `discards ${v.discard_pile.length}`)));

  const mine = [];
  if (v.hand) {
    const usable = new Set([...draws.map((a) => a.discard), ...swaps.map((a) => a.give)]);
    mine.push(el("div", { class: "my-hand" },
      el("div", { class: "cards-row hand", role: "group", "aria-label": "Your hand" }, v.hand.map((card) => cardButton(card, {
        czech: ctx.czech,
        key: `hand-${card}`,
        does: usable.has(card) ? "pick to exchange" : undefined,
        selected: usable.has(card) ? selected === card : undefined,
        onpick: usable.has(card) ? pick(card) : null,
        extraClass: usable.has(card) && !selected ? "target" : "",
      }))),
      ctx.czech ? el("p", { class: "czech-names" }, v.hand.map((card) => ctx.czech[card]).join(" · ")) : null,
      el("p", { class: "hand-value" }, `Your hand is worth ${v.hand_value}`,
        ` · ${v.penalties[ctx.seat]} penalty point${v.penalties[ctx.seat] === 1 ? "" : "s"}`)));
  }

  const actions = [];
  if (ctx.legal.length) {
    actions.push(actionButton(ctx, "Swap all three", flag({ type: "swap_all" }), { key: "swap_all" }));
    actions.push(actionButton(ctx, "Dál (pass)", { type: "pass" }, { key: "pass" }));
    actions.push(actionButton(ctx, "Konec (knock)", { type: "konec" }, { key: "konec", primary: true }));
    if (canKonecWith) {
      actions.push(el("label", { class: "check" },
        el("input", {
          type: "checkbox", checked: withKonec,
          onchange: (e) => { withKonec = e.target.checked; },
        }), " and knock after my exchange"));
    }
  }
  const hint = ctx.legal.length
    ? (selected
      ? `Now pick a table card to swap ${cardText(selected)} for it, or the stock to discard it and draw.`
      : "Pick a card of your hand to exchange it, or swap all three, pass or knock.")
    : waitingFor(ctx);
  return el("div", { class: "alager" },
    opponents(ctx),
    el("div", { class: "felt" }, tableCards, piles),
    ...mine,
    el("p", { class: "hint", id: "action-hint" }, withNames(hint)),
    el("div", { class: "actions" }, actions));
}

// What ends the match, in words (a line under the turn bar): a bare "limit 5"
// told a new player nothing, and in the turn bar it made three lines on a phone.
function limitNote(ctx) {
  const o = ctx.view.options;
  if (o.end_mode === "fixed_deals") return `${plural(o.num_deals, "deal")}; the fewest penalty points win.`;
  const one = o.penalty_limit === 1;
  const limit = plural(o.penalty_limit, "penalty point");
  if (o.end_mode === "elimination") return `${limit} put${one ? "s" : ""} a player out.`;
  return `${limit} end${one ? "s" : ""} the match.`;
}

// Why the match ended: the deals were played, or who reached the limit.
function endReason(ctx) {
  const v = ctx.view;
  const o = v.options;
  if (o.end_mode === "fixed_deals") return `All ${o.num_deals} deals played.`;
  const reached = v.penalties.map((points, seat) => ({ points, seat }))
    .filter(({ points }) => points >= o.penalty_limit).map(({ seat }) => ctx.names(seat));
  if (!reached.length) return "";
  const who = listNames(reached);
  return `${who} reached ${plural(o.penalty_limit, "penalty point")}${o.end_mode === "elimination" ? " and went out" : ""}.`;
}

// Two lines at most on a phone, a clock beside: who plays, which deal, and
// whether konec was called (the limit is on the line under it, limitNote).
// A name opens the sentence: in the bar it is cut to at most half the line
// (withNames), so it always fits on the first line, and the rest follows it.
function status(ctx) {
  const v = ctx.view;
  const deal = v.options.end_mode === "fixed_deals" ? `deal ${v.deal} of ${v.options.num_deals}` : `deal ${v.deal}`;
  if (v.phase === "final") {
    return ctx.legal.length ? `Your turn (last: konec) — ${deal}.` : `${ctx.names(v.current)} to play (last: konec) — ${deal}.`;
  }
  if (ctx.legal.length) return `Your turn — ${deal}.`;
  return `${ctx.names(v.current)} to play — ${deal}.`;
}

function describe(event, ctx) {
  const p = event.payload;
  const who = ctx.names(p.seat);
  switch (event.type) {
    case "alager.deal_started": return `Deal ${p.deal}: ${ctx.names(p.dealer)} deals; table ${p.table.map(cardText).join(" ")}.`;
    case "alager.card_discarded": return p.card ? `${who} discarded ${cardText(p.card)}.` : `${who} put a card face down under the stock.`;
    case "alager.card_drawn": return p.card ? `${who} drew ${cardText(p.card)} from the stock.` : `${who} drew from the stock.`;
    case "alager.card_swapped": return `${who} swapped ${cardText(p.give)} for ${cardText(p.take)}.`;
    case "alager.hand_swapped": return `${who} swapped all three cards with the table.`;
    case "alager.passed": return `${who}: dál (pass).`;
    case "alager.table_refreshed": return `Everyone passed: new table cards ${p.table.map(cardText).join(" ")}.`;
    case "alager.stock_replenished": return "The discard pile went under the stock.";
    case "alager.konec_called": return `${who} knocked: konec! Everyone else has one last turn.`;
    case "alager.final_queue_advanced": return `Still to play a last turn: ${p.queue.map((s) => ctx.names(s)).join(", ")}.`;
    case "alager.special_announced": return `${who} announced ${kindName(p.kind)}!`;
    case "alager.deal_ended": {
      const hit = p.penalised.length ? p.penalised.map((s) => ctx.names(s)).join(", ") : "nobody";
      return `Deal ${p.deal} ended by ${REASONS[p.reason] || p.reason}: ${hit} ${p.penalised.length === 1 ? "takes" : "take"} points.`;
    }
    case "alager.match_ended": return `Match over. ${placesText(ctx, p.outcome)}`;
    default: return null;
  }
}

function seatInfo(ctx, seat) {
  const v = ctx.view;
  if (v.eliminated.includes(seat)) return "out";
  return `${v.penalties[seat]} pt`;
}

function summary(ctx) {
  const d = ctx.view.last_deal;
  if (!d) return null;
  // Each shown hand sits under its player's name, in small cards: a column
  // of its own made the table wider than the side panel at 1440 px.
  const rows = d.hands.map((hand, seat) => [
    el("span", { class: "deal-player" }, seatLabel(ctx.names(seat)),
      hand ? el("span", { class: "mini-cards" }, hand.map((c) => cardButton(c, { czech: ctx.czech })))
        : el("span", { class: "muted" }, "no hand")),
    d.changes[seat] > 0 ? `+${d.changes[seat]}` : String(d.changes[seat]),
    String(d.penalties[seat]),
    d.values[seat] === null ? "—" : String(d.values[seat]),
  ]);
  // Names cut as in the turn bar; the knocker's follows a semicolon, as a
  // cut name after "(" went to the next line without it.
  const who = marked(ctx).names;
  const specials = d.specials.map((s) => `${who(s.seat)}: ${kindName(s.kind)}`).join(", ");
  const node = el("div", {},
    el("p", {}, withNames(`Deal ${d.deal} ended by ${REASONS[d.reason] || d.reason}${d.knocker !== null ? `; ${who(d.knocker)} knocked` : ""}.${specials ? ` ${specials}.` : ""}`)),
    scoreTable(["Player and hand", "Points", "Total", "Value"], rows));
  node.dataset.title = `Deal ${d.deal} result`;
  return node;
}

function outcomeLine(ctx) {
  const reason = endReason(ctx);
  return `${placesText(ctx, ctx.view.outcome, "fewest penalty points")}${reason ? ` ${reason}` : ""}`;
}

function result(ctx) {
  const node = resultTable(ctx, "Penalty points");
  const reason = endReason(ctx);
  if (reason) node.firstChild.after(el("p", { class: "result-reason" }, reason));
  return node;
}

export default { board, status, describe, seatInfo, limitNote, summary, outcomeLine, result };
