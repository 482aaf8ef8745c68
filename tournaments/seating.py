"""Who sits where in a round: Swiss and round-robin seating, framework-free.

The services hand this module plain values (entries as ids, their standing,
what happened in earlier rounds) and get back a ``Plan``: the tables with a
player (or a bot) for every seat, and the byes. Nothing here touches the
database, so the seating rules are tested on their own and a preview in the
admin is exactly what the confirmed action creates (the same inputs give the
same plan).

Swiss (any table size)
    Round 1 spreads the seeds (table ``t`` gets ranks ``t``, ``t + T``,
    ``t + 2T`` … of ``T`` tables, the usual seeded distribution); later rounds
    seat neighbours in the standings together. Then pairs of units swap
    tables while that lowers the cost, in this order of importance: people
    meeting again, people at a table made up with bots who have sat at one
    before, the spread of tournament points at a table, and tables where
    nobody is due the lead seat.
Round robin (2-player tables)
    The circle method: every pair meets once over ``n - 1`` rounds (``n``
    rounds for an odd count, each player sitting out once).

Seats inside a table balance position: the seat that acts first (``lead``,
read from the game's rules) goes to whoever has had it least, then the next
seats in acting order likewise. Alkort with four players has partnerships
(seats 0 & 2 against 1 & 3): individual events choose the partner split that
repeats partners least; team events keep each pair together on one side.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

#: A bot seat in a plan (people are positive entry ids).
BOT = None

# Weights of the table cost: a repeated meeting outweighs any points spread,
# which outweighs seat balance.
# A table where nobody is due the lead weighs a little less than a one-point
# spread, so seat balance gives way to the standings only for real gaps.
_REPEAT = 1_000_000
_SPREAD = 100
_LEAD = 150
# A table made up with bots goes to those who have sat at one least (as a bye
# goes to those with the fewest byes): an earlier such table weighs as a
# 50-point spread, more than any real gap in the standings, less than a repeat.
_BOTS = 10_000


@dataclass(frozen=True)
class Unit:
    """What is seated as one: an entry, or a team (two entries, fixed order)."""

    key: int
    members: tuple[int, ...]
    points: Decimal = Decimal(0)


@dataclass
class History:
    """Who met whom, who partnered whom, and seat positions in earlier rounds.

    ``met`` and ``partnered`` count unordered pairs of entry ids; ``positions``
    counts, per entry, how often it sat at each offset from the lead seat (0:
    acted first); ``byes`` counts byes per entry.
    """

    met: Counter[frozenset[int]] = field(default_factory=Counter)
    partnered: Counter[frozenset[int]] = field(default_factory=Counter)
    positions: Counter[tuple[int, int]] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)
    #: Tables played with bots, per entry (the bots policy's counterpart of a bye).
    bot_tables: Counter[int] = field(default_factory=Counter)

    def record_table(
        self, seats: Sequence[int | None], lead: int, partners: Sequence[Sequence[int]]
    ) -> None:
        """Add one played table: ``seats[i]`` is the entry at seat i (None: bot)."""
        people = [e for e in seats if e is not None]
        for a, b in itertools.combinations(people, 2):
            self.met[frozenset((a, b))] += 1
        for side in partners:
            pair = [e for e in (seats[i] for i in side) if e is not None]
            for x, y in itertools.combinations(pair, 2):
                self.partnered[frozenset((x, y))] += 1
        n = len(seats)
        for index, entry in enumerate(seats):
            if entry is not None:
                self.positions[(entry, (index - lead) % n)] += 1
        if len(people) < n:
            self.bot_tables.update(people)

    def leads(self, entry: int) -> int:
        return self.positions[(entry, 0)]


@dataclass(frozen=True)
class Plan:
    """A round's seating: per table the entry at each seat (``BOT`` for a bot)."""

    tables: tuple[tuple[int | None, ...], ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Layout:
    """The table as the game has it: size, first seat to act, partnerships."""

    size: int
    lead: int
    partners: tuple[tuple[int, ...], ...] = ()
    team_event: bool = False

    @property
    def unit_size(self) -> int:
        return 2 if self.team_event else 1

    @property
    def units_per_table(self) -> int:
        return self.size // self.unit_size


class SeatingError(ValueError):
    """The round cannot be seated (too few players, an incomplete team …)."""


# --- Swiss -------------------------------------------------------------------


def swiss_plan(
    *,
    units: Sequence[Unit],
    layout: Layout,
    history: History,
    fill_with_bots: bool,
    first_round: bool,
) -> Plan:
    """Seat ``units`` (ranked best first) for one Swiss round.

    Units left over by the table size sit out with a bye (the lowest ranked
    among those with the fewest byes), or the last table is made up with bots.
    """
    per_table = layout.units_per_table
    if len(units) < per_table:
        raise SeatingError(
            f"Too few players for one table: {len(units)} "
            f"{'team' if layout.team_event else 'player'}"
            f"{'' if len(units) == 1 else 's'}, a table seats {per_table}."
        )
    spare = len(units) % per_table
    byes: list[Unit] = []
    playing = list(units)
    if spare and not fill_with_bots:
        byes = _bye_units(playing, spare, history)
        playing = [u for u in playing if u not in byes]
    groups = _initial_groups(playing, per_table, first_round)
    groups = _improve(groups, history)
    if _repeats(groups, history):
        fewer = _fewest_repeats(groups, history)
        if fewer is not None:
            groups = _improve(fewer, history)
    tables = tuple(
        _seat_table(group, layout, history, number)
        for number, group in enumerate(groups)
    )
    return Plan(
        tables=tables,
        byes=tuple(sorted(m for u in byes for m in u.members)),
    )


def _bye_units(units: list[Unit], count: int, history: History) -> list[Unit]:
    """The ``count`` units that sit out: fewest byes so far, then lowest ranked."""
    ranked = list(enumerate(units))
    ranked.sort(key=lambda iu: (sum(history.byes[m] for m in iu[1].members), -iu[0]))
    return [u for _, u in ranked[:count]]


def _initial_groups(
    units: list[Unit], per_table: int, first_round: bool
) -> list[list[Unit | None]]:
    """A first arrangement; ``None`` marks a unit's place taken by bots."""
    count = -(-len(units) // per_table)
    padded: list[Unit | None] = [*units, *[None] * (count * per_table - len(units))]
    if first_round:
        # Seeds spread over the full tables; the rest (lowest seeds) and the
        # bots make up the last table.
        full = len(units) // per_table
        groups: list[list[Unit | None]] = [[] for _ in range(full)]
        for index, unit in enumerate(units[: full * per_table]):
            groups[index % full].append(unit)
        if full < count:
            groups.append(padded[full * per_table :])
        return groups
    return [padded[i : i + per_table] for i in range(0, len(padded), per_table)]


def _table_cost(group: Sequence[Unit | None], history: History) -> int:
    units = [u for u in group if u is not None]
    repeats = sum(
        history.met[frozenset((a, b))]
        for x, y in itertools.combinations(units, 2)
        for a in x.members
        for b in y.members
    )
    if not units:
        return 0
    points = [u.points for u in units]
    spread = int((max(points) - min(points)) * 2)
    leads = min(history.leads(m) for u in units for m in u.members)
    bots = 0
    if len(units) < len(group):
        bots = sum(history.bot_tables[m] for u in units for m in u.members)
    return repeats * _REPEAT + spread * _SPREAD + leads * _LEAD + bots * _BOTS


def _improve(
    groups: list[list[Unit | None]], history: History
) -> list[list[Unit | None]]:
    """Swap units between tables while that lowers the total cost.

    Bot places (``None``) stay where they are. Swaps are tried in a fixed
    order, so the result depends only on the inputs.
    """
    costs = [_table_cost(g, history) for g in groups]
    for _ in range(200):
        improved = False
        for t1, t2 in itertools.combinations(range(len(groups)), 2):
            for i, j in itertools.product(
                range(len(groups[t1])), range(len(groups[t2]))
            ):
                a, b = groups[t1][i], groups[t2][j]
                if a is None or b is None:
                    continue
                groups[t1][i], groups[t2][j] = b, a
                c1, c2 = (
                    _table_cost(groups[t1], history),
                    _table_cost(groups[t2], history),
                )
                if c1 + c2 < costs[t1] + costs[t2]:
                    costs[t1], costs[t2] = c1, c2
                    improved = True
                else:
                    groups[t1][i], groups[t2][j] = a, b
        if not improved:
            break
    return groups


def _pair_repeats(a: Unit, b: Unit, history: History) -> int:
    """How often the members of ``a`` and ``b`` have met."""
    return sum(history.met[frozenset((x, y))] for x in a.members for y in b.members)


def _repeats(groups: Sequence[Sequence[Unit | None]], history: History) -> int:
    """Meetings ``groups`` would repeat."""
    return sum(
        _pair_repeats(a, b, history)
        for group in groups
        for a, b in itertools.combinations([u for u in group if u is not None], 2)
    )


#: How much work ``_fewest_repeats`` does before keeping what it has: each
#: table tried costs its pairs checked plus the units left to place. About a
#: fifth of a second in CPython, so a seating page stays quick even when the
#: repeats cannot be avoided (more rounds than opponents) and the search
#: runs to the end of its budget.
_SEARCH_BUDGET = 100_000


def _fewest_repeats(
    groups: list[list[Unit | None]], history: History
) -> list[list[Unit | None]] | None:
    """Tables with fewer repeated meetings than ``groups``, if a search finds any.

    Swapping two units at a time (``_improve``) can get stuck: late in an
    event every single swap may make a repeat while a wider rearrangement
    avoids them all (eight players after four rounds of two-player tables).
    This branch and bound fills the tables in ranking order, each with the
    best-ranked unit left and the nearest-ranked ones that add the fewest
    repeats, pruning any partial plan that already repeats as much as the
    best so far, and stops at a plan without repeats or after
    ``_SEARCH_BUDGET`` is spent. Each table keeps its size (bot places,
    ``None``, stay where they are); ``None`` if nothing better was found.
    """
    best_cost = _repeats(groups, history)
    units = [u for g in groups for u in g if u is not None]
    rank = {id(u): i for i, u in enumerate(units)}
    # Full tables are interchangeable; a table with bot places is filled first.
    sizes = [sum(u is not None for u in g) for g in groups]
    order = sorted(range(len(groups)), key=lambda t: (sizes[t] == max(sizes), t))
    best: list[list[Unit]] | None = None
    tried = 0

    def fill(step: int, left: list[Unit], chosen: list[list[Unit]], cost: int) -> bool:
        nonlocal best, best_cost, tried
        if step == len(order):
            best, best_cost = [list(t) for t in chosen], cost
            return cost == 0
        size = sizes[order[step]]
        head: tuple[Unit, ...] = ()
        pool = left[::-1]  # a table with bots: the lowest ranked first
        if size == max(sizes) and left:
            head, pool = (left[0],), left[1:]
        for rest in itertools.combinations(pool, size - len(head)):
            tried += size * (size - 1) // 2 + len(left)
            if tried > _SEARCH_BUDGET:
                return True
            table = [*head, *rest]
            added = sum(
                _pair_repeats(a, b, history)
                for a, b in itertools.combinations(table, 2)
            )
            if cost + added >= best_cost:
                continue
            remaining = [u for u in left if all(u is not t for t in table)]
            chosen.append(table)
            done = fill(step + 1, remaining, chosen, cost + added)
            chosen.pop()
            if done:
                return True
        return False

    fill(0, sorted(units, key=lambda u: rank[id(u)]), [], 0)
    if best is None:
        return None
    result: list[list[Unit | None]] = [list(g) for g in groups]
    for step, table in enumerate(best):
        group = result[order[step]]
        members = iter(table)
        result[order[step]] = [None if u is None else next(members) for u in group]
    return result


# --- seats inside one table --------------------------------------------------


def _seat_table(
    group: Sequence[Unit | None], layout: Layout, history: History, number: int = 0
) -> tuple[int | None, ...]:
    """Give every member of ``group`` a seat; bot places become ``BOT`` seats.

    ``number`` (the table's) breaks ties: on table 0 the best ranked player
    is first in line for the lead, on table 1 the second, and so on, so a
    first round does not give the lead to every table's top seed.
    """
    units = [u for u in group if u is not None]
    if layout.team_event and units:
        # Teams, not players, take turns at the head of the line.
        shift = number % len(units)
        units = units[shift:] + units[:shift]
    people = [m for u in units for m in u.members]
    if people and not layout.team_event:
        shift = number % len(people)
        people = people[shift:] + people[:shift]
    if layout.partners:
        return _seat_partnerships(group, layout, history, people)
    return _seat_by_position(people, layout.size, layout.lead, history)


def _order(layout_size: int, lead: int) -> list[int]:
    """Seats in acting order from the lead seat."""
    return [(lead + k) % layout_size for k in range(layout_size)]


def _seat_by_position(
    people: Sequence[int], size: int, lead: int, history: History
) -> tuple[int | None, ...]:
    """Fill seats in acting order, each with whoever has sat there least."""
    seats: list[int | None] = [BOT] * size
    left = list(people)
    line = {e: i for i, e in enumerate(people)}
    for offset, seat in enumerate(_order(size, lead)):
        if not left:
            break
        best = min(
            left,
            key=lambda e: (history.positions[(e, offset)], history.leads(e), line[e]),
        )
        seats[seat] = best
        left.remove(best)
    return tuple(seats)


def _seat_partnerships(
    group: Sequence[Unit | None],
    layout: Layout,
    history: History,
    line: Sequence[int],
) -> tuple[int | None, ...]:
    """Seat a partnership table: one pair per side, the lead to the most due.

    ``line`` is the table's people in their order of precedence (by ranking,
    turned by the table's number, as ``_seat_table`` gives it). The lead goes
    to whoever has had it least, ties to the first in line; that player's
    pair takes the lead side. Each other seat, in acting order, goes to the
    side's member who has sat there least, ties again by the line.
    """
    if layout.team_event:
        pairs: list[tuple[int | None, ...]] = [
            u.members if u is not None else (BOT, BOT) for u in group
        ]
    else:
        people: list[int | None] = [
            m for u in group if u is not None for m in u.members
        ]
        people += [BOT] * (layout.size - len(people))
        pairs = _best_partner_split(people, history)
    lead_side = next(s for s in layout.partners if layout.lead in s)
    other_side = next(s for s in layout.partners if layout.lead not in s)
    place = {e: i for i, e in enumerate(line)}

    def precedence(e: int | None, offset: int) -> tuple[int, int]:
        if e is None:
            return (1 << 30, 1 << 30)
        return (history.positions[(e, offset)], place.get(e, 1 << 20))

    def due(pair: tuple[int | None, ...]) -> tuple[int, int]:
        return min(precedence(e, 0) for e in pair)

    pairs.sort(key=due)
    seats: list[int | None] = [BOT] * layout.size
    for side, pair in ((lead_side, pairs[0]), (other_side, pairs[1])):
        ordered_side = sorted(side, key=lambda s: (s - layout.lead) % layout.size)
        members = list(pair)
        for seat in ordered_side:
            offset = (seat - layout.lead) % layout.size
            best = min(members, key=lambda e: precedence(e, offset))
            seats[seat] = best
            members.remove(best)
    return tuple(seats)


def _best_partner_split(
    people: list[int | None], history: History
) -> list[tuple[int | None, ...]]:
    """The split of four into two pairs that repeats partners least.

    With bots at the table, a person partners a bot where possible, so the
    people there play against each other on equal terms.
    """
    first = people[0]
    best: list[tuple[int | None, ...]] | None = None
    best_cost = None
    for index in range(1, 4):
        pair = (first, people[index])
        rest = tuple(p for i, p in enumerate(people[1:], start=1) if i != index)
        cost = 0
        for a, b in (pair, rest):
            if a is not None and b is not None:
                cost += 2 * history.partnered[frozenset((a, b))]
            if (a is None) != (b is None):
                cost -= 1
        if best_cost is None or cost < best_cost:
            best, best_cost = [pair, rest], cost
    assert best is not None
    return best


# --- round robin -------------------------------------------------------------


def round_robin_rounds(count: int) -> int:
    """How many rounds a round robin of ``count`` players takes."""
    return count - 1 if count % 2 == 0 else count


def round_robin_plan(
    *,
    roster: Sequence[int | None],
    round_number: int,
    layout: Layout,
    history: History,
    fill_with_bots: bool,
) -> Plan:
    """Round ``round_number`` (1-based) of the circle method over ``roster``.

    ``roster`` is every starting entry in starting-number order; an entry
    that has withdrawn is ``None`` there, and its opponent that round has a
    bye (or a bot, per the tournament). With an odd count, the player drawn
    against the empty place sits out (or plays a bot).
    """
    if layout.size != 2:
        raise SeatingError("A round robin is played at 2-player tables.")
    players = list(roster)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    if not 1 <= round_number <= n - 1:
        raise SeatingError(f"A round robin of {len(roster)} has {n - 1} rounds.")
    fixed, rest = players[0], players[1:]
    shift = round_number - 1
    rotated = rest[-shift:] + rest[:-shift] if shift else rest
    circle = [fixed, *rotated]
    tables: list[tuple[int | None, ...]] = []
    byes: list[int] = []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        if a is None and b is None:
            continue
        if a is None or b is None:
            alone = a if a is not None else b
            assert alone is not None
            if fill_with_bots:
                tables.append(_seat_by_position([alone], 2, layout.lead, history))
            else:
                byes.append(alone)
            continue
        # Berger's rule: the upper half of the circle leads, and the fixed
        # player alternates; everyone leads in about half their rounds.
        first = a if i > 0 or round_number % 2 else b
        seats = [first, b if first == a else a]
        if layout.lead == 1:
            seats.reverse()
        tables.append(tuple(seats))
    return Plan(tables=tuple(tables), byes=tuple(sorted(byes)))
