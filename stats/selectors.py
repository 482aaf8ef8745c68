"""Reads of the statistics, shaped for the API and for other apps.

Public helpers other parts call: ``rating_get`` (the tournaments' seeding),
``rating_history_list`` (the profile chart, through the API) and
``computed_through_get`` (how far the statistics have got). Every figure comes
from finished, counted tables only (``docs/stats.md``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import (
    Count,
    Exists,
    F,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Window,
)
from django.db.models.functions import Rank
from django.utils import timezone

import rules
from accounts.models import User
from accounts.selectors import user_find
from games.errors import NotFound
from games.models import Seat, TableStatus
from stats.models import (
    GameProgress,
    GameStat,
    PendingTable,
    PlayerGameStat,
    PlayerResult,
    Rating,
    RatingChange,
)
from stats.projection import alager, alkort, allegra
from stats.ratings import PROVISIONAL_MATCHES, display

GAME_KEYS = {"alager": alager.KEYS, "alkort": alkort.KEYS, "allegra": allegra.KEYS}


def game_check(*, game: str) -> str:
    """``game`` if Cardroom has it; else ``NotFound("unknown_game")``."""
    if game not in rules.GAMES:
        raise NotFound(
            "unknown_game",
            f"Unknown game {game!r}; Cardroom offers: {', '.join(rules.GAMES)}.",
        )
    return game


def user_get(*, username: str) -> User:
    """The account named ``username``, whatever the case of its letters
    (``accounts.selectors.user_find``); else ``NotFound("unknown_player")``."""
    user = user_find(username=username)
    if user is None:
        raise NotFound("unknown_player", f"There is no player named {username!r}.")
    return user


def rating_fields(mu: float, sigma: float, matches: int) -> dict[str, Any]:
    """The rating fields every API response carries (``docs/stats.md``)."""
    return {
        "mu": mu,
        "sigma": sigma,
        "display": display(mu, sigma),
        "matches": matches,
        "provisional": matches < PROVISIONAL_MATCHES,
    }


def rating_get(user: User, game: str) -> dict[str, Any] | None:
    """``{mu, sigma, display, matches, provisional}`` of ``user`` in ``game``,
    or None before their first rated match.

    Positional or keyword arguments alike: the tournaments' seeding calls
    ``rating_get(user, game)``.
    """
    row = Rating.objects.filter(user=user, game=game).first()
    if row is None:
        return None
    return rating_fields(row.mu, row.sigma, row.matches)


def _progress(game: str | None) -> list[GameProgress]:
    rows = GameProgress.objects.all()
    if game is not None:
        rows = rows.filter(game=game)
    return list(rows)


def computed_through_get(*, game: str | None = None) -> dict[str, Any]:
    """How far the statistics have got: the last finished table counted (in
    finish order), how many are counted, and how many finished tables still
    wait for their count.

    The counted part reads the games' progress rows (``GameProgress``, one a
    game, kept by the writer with the markers) and combines them here (sum,
    newest), never every ``CountedTable``; the waiting part reads the queue
    (``PendingTable``), each of its rows joined with its own table by primary
    key, never an anti-join of the site's finished tables with the markers.
    """
    rows = _progress(game)
    queued = PendingTable.objects.filter(table__status=TableStatus.FINISHED)
    if game is not None:
        queued = queued.filter(game=game)
    last = max(rows, key=lambda r: (r.last_finished_at, r.last_table), default=None)
    return {
        "table": last.last_table if last else None,
        "finished_at": last.last_finished_at if last else None,
        "tables": sum(r.tables for r in rows),
        "pending": queued.count(),
        "counted_at": max((r.counted_at for r in rows), default=None),
    }


def last_modified(*, game: str | None = None) -> datetime | None:
    """When the statistics last changed (the newest count or rebuild): the
    newest ``counted_at`` of the games' progress rows."""
    rows = GameProgress.objects.all()
    if game is not None:
        rows = rows.filter(game=game)
    at: datetime | None = rows.aggregate(at=Max("counted_at"))["at"]
    return at


def leaderboard_list(
    *, game: str, min_matches: int = 0, players: int | None = None, bots: bool = True
) -> QuerySet[Rating]:
    """Ratings of ``game``, best display rating first (``bots=False``: people only),
    each with its ``rank`` among them: 1 + how many rank strictly higher.

    ``players`` keeps those with a rated table of that many players
    (``min_matches`` then counts those tables); ``min_matches`` otherwise
    counts every rated table: the rating's ``matches``, one a table even for
    a house bot that held several seats of it (``docs/stats.md``).
    """
    ratings = Rating.objects.filter(game=game).select_related("user")
    if not bots:
        ratings = ratings.filter(user__is_bot=False)
    if players is not None:
        at_size = (
            PlayerResult.objects.filter(game=game, players=players, rated=True)
            .values("user_id")
            .annotate(n=Count("table_id", distinct=True))
            .filter(n__gte=max(1, min_matches))
            .values("user_id")
        )
        ratings = ratings.filter(user_id__in=at_size)
    elif min_matches:
        ratings = ratings.filter(matches__gte=min_matches)
    display_value = F("mu") - 3 * F("sigma")
    return ratings.annotate(
        display_value=display_value,
        # Equal display ratings share a rank ("1, 2, 2, 4"): Alkort partners
        # who always sat together have the very same rating, and which of
        # them is "2nd" and which "3rd" would only be the order of their names.
        rank=Window(Rank(), order_by=display_value.desc()),
    ).order_by("-display_value", "-mu", "user__username")


def player_game_stats(counters: dict[str, Any], game: str) -> dict[str, Any]:
    """Readable figures from one player's sums in one game."""
    n = counters.get("matches", 0)
    out: dict[str, Any] = {
        "matches": n,
        "wins": counters.get("wins", 0),
        "win_rate": _ratio(counters.get("wins", 0), n),
        "average_place": _ratio(counters.get("place_sum", 0), n),
        "average_score": _ratio(counters.get("score_sum", 0), n),
        "rated_matches": counters.get("rated_matches", 0),
        "moves": counters.get("moves", 0),
        "timeouts": counters.get("timeouts", 0),
        "first_player": counters.get("first_player", 0),
        "first_player_wins": counters.get("first_player_wins", 0),
    }
    c = counters
    if game == "alager":
        out |= {
            "deals": c.get("deals", 0),
            "alager": c.get("alager", 0),
            "hori": c.get("hori", 0),
            "knocks": c.get("knocks", 0),
            "knocks_lowest": c.get("knocks_lowest", 0),
            "knocker_lowest_rate": _ratio(
                c.get("knocks_lowest", 0), c.get("knocks", 0)
            ),
            "average_showdown_value": _ratio(
                c.get("showdown_value_sum", 0), c.get("showdowns", 0)
            ),
        }
    elif game == "alkort":
        out |= {
            "deals": c.get("deals", 0),
            "muk": c.get("muk", 0),
            "strokes": c.get("strokes", 0),
            "tricks": c.get("tricks", 0),
            "tricks_per_deal": _ratio(c.get("tricks", 0), c.get("deals", 0)),
            "stock_exchanges": c.get("stock_exchanges", 0),
            "sevens_led": c.get("sevens_led", 0),
        }
    else:
        out |= {
            "rounds": c.get("rounds", 0),
            "average_round_score": _ratio(
                c.get("round_score_sum", 0), c.get("rounds", 0)
            ),
            "times_doubled": c.get("doubled", 0),
            "triples_removed": c.get("triples", 0),
            "knocks_made": c.get("knocks", 0),
            "knocks_granted": c.get("knocks_granted", 0),
        }
    return out


def player_stats_get(*, user: User) -> dict[str, Any]:
    """Every game's rating (or None) and statistics of ``user``."""
    ratings = {r.game: r for r in Rating.objects.filter(user=user)}
    stats = {s.game: s.counters for s in PlayerGameStat.objects.filter(user=user)}
    return {
        "username": user.username,
        "is_bot": user.is_bot,
        "bot_level": user.bot_level,
        "ratings": {
            game: (
                rating_fields(
                    ratings[game].mu, ratings[game].sigma, ratings[game].matches
                )
                if game in ratings
                else None
            )
            for game in rules.GAMES
        },
        "games": {
            game: player_game_stats(stats.get(game, {}), game) for game in rules.GAMES
        },
    }


def rating_history_list(*, user: User, game: str) -> QuerySet[RatingChange]:
    """``user``'s rating changes in ``game``, oldest first: one per rated
    table and seat held (a person's one seat; each of a house bot's seats)."""
    return RatingChange.objects.filter(user=user, game=game).order_by(
        "finished_at", "table_id", "seat"
    )


def player_tables_list(
    *, user: User, game: str | None = None
) -> QuerySet[PlayerResult]:
    """``user``'s seats at counted tables, newest first, each with ``left``.

    Every table the statistics count for ``user`` (``matches``): rated or
    not, and those they left in play (a bot played the seat on; the result is
    theirs). A house bot has a row per seat it held. Tables left in the lobby
    or aborted there were never played and count nowhere.
    """
    results = PlayerResult.objects.filter(user=user)
    if game is not None:
        results = results.filter(game=game)
    left = Seat.objects.filter(
        table_id=OuterRef("table_id"),
        index=OuterRef("seat"),
        replaced_user_id=OuterRef("user_id"),
    )
    return results.annotate(left=Exists(left)).order_by(
        "-finished_at", "-table_id", "seat"
    )


#: Tables of a player's own that finished and wait for their count, read at
#: most: a profile lists the player's ten latest finished tables.
UNCOUNTED_LIMIT = 10


def player_tables_uncounted(
    *, user: User, game: str | None = None, limit: int = UNCOUNTED_LIMIT
) -> list[dict[str, Any]]:
    """``user``'s seats at finished tables whose count is still on its way,
    newest finish first, for at most ``limit`` tables.

    Read from the queue of tables waiting for their count (``PendingTable``)
    joined with the player's seats there (the seats' unique table index), so
    it costs what is still to count, not the player's finished tables: a
    house bot holds seats at most tables of the site. Not from the site's
    latest finished tables either, which on a busy site pushed the player's
    own table out. A seat is the player's as the statistics will credit it:
    the person who sat down, even if they left and a bot played on
    (``left``); that bot is not credited. A house bot has a row per seat it
    held. Only finished tables, whose outcome is public, are read.
    """
    mine = Q(replaced_user=user) | Q(user=user, replaced_user__isnull=True)
    seated = Seat.objects.filter(mine, table_id=OuterRef("table_id"))
    queued = PendingTable.objects.filter(
        Exists(seated), table__status=TableStatus.FINISHED
    )
    if game is not None:
        queued = queued.filter(game=game)
    found = list(
        queued.order_by(F("finished_at").desc(nulls_last=True), "-table_id").values(
            "game",
            "finished_at",
            id=F("table_id"),
            players=F("table__players"),
            outcome=F("table__outcome"),
            updated_at=F("table__updated_at"),
        )[:limit]
    )
    by_id = {t["id"]: t for t in found}
    rows = []
    held = (
        Seat.objects.filter(mine, table_id__in=by_id)
        .values_list("table_id", "index", "replaced_user_id")
        .order_by("table_id", "index")
    )
    places: dict[int, list[tuple[int, bool]]] = {}
    for table_id, index, replaced in held:
        places.setdefault(table_id, []).append((index, replaced is not None))
    for t in found:
        outcome_places = (t["outcome"] or {}).get("places") or []
        for index, left in places.get(t["id"], []):
            rows.append(
                {
                    "table": t["id"],
                    "game": t["game"],
                    "finished_at": t["finished_at"] or t["updated_at"],
                    "players": t["players"],
                    "seat": index,
                    "place": (
                        outcome_places[index] if index < len(outcome_places) else None
                    ),
                    "left": left,
                }
            )
    return rows


def player_table_json(row: PlayerResult) -> dict[str, Any]:
    return {
        "table": row.table_id,
        "game": row.game,
        "finished_at": row.finished_at,
        "players": row.players,
        "seat": row.seat,
        "place": row.place,
        "score": row.score,
        "won": row.won,
        "rated": row.rated,
        "left": row.left,  # type: ignore[attr-defined]
    }


def rating_change_json(change: RatingChange) -> dict[str, Any]:
    return {
        "table": change.table_id,
        "seat": change.seat,
        "finished_at": change.finished_at,
        "place": change.place,
        "expected_place": change.expected_place,
        "before": {"mu": change.before_mu, "sigma": change.before_sigma},
        "after": {"mu": change.after_mu, "sigma": change.after_sigma},
        "display": display(change.after_mu, change.after_sigma),
        "matches": change.matches,
    }


def game_stats_get(*, game: str) -> dict[str, Any]:
    """Figures over every counted match of ``game``."""
    row = GameStat.objects.filter(game=game).first()
    c: dict[str, Any] = row.counters if row else {}
    n = c.get("matches", 0)
    by_players = {}
    for key, v in sorted(c.get("by_players", {}).items(), key=lambda kv: int(kv[0])):
        m = v.get("matches", 0)
        by_players[key] = {
            "matches": m,
            "first_player_wins": v.get("first_player_wins", 0),
            "first_player_win_rate": _ratio(v.get("first_player_wins", 0), m),
            # Alkort's four players are two sides: the first player's side.
            "fair_share": 0.5 if game == "alkort" else 1 / int(key),
            "first_player_average_place": _ratio(v.get("first_player_place_sum", 0), m),
            "draws": v.get("draws", 0),
        }
    own = {k: v for k, v in c.items() if k not in _COMMON}
    return {
        "game": game,
        "title": rules.get_game(game).title,
        "matches": n,
        "rated_matches": c.get("rated_matches", 0),
        "average_moves": _ratio(c.get("moves", 0), n),
        "average_minutes": _ratio(c.get("seconds", 0), n * 60),
        "timeouts": c.get("timeouts", 0),
        "first_player": by_players,
        "totals": own,
    }


_COMMON = {"matches", "rated_matches", "moves", "seconds", "timeouts", "by_players"}


class _Meetings:
    """The pairs of seats two players held at the same counted tables, oldest
    first, for a paginator: ``count()`` and a slice each ask PostgreSQL (a
    slice reads its page's rows only, as ``PlayerResult`` with the other
    seat's ``b_seat``, ``b_place``, ``b_score`` and the ``result``)."""

    _SQL = """
        FROM {t} ra JOIN {t} rb ON rb.table_id = ra.table_id AND rb.user_id = %s
        WHERE ra.user_id = %s AND ra.game = %s AND ra.user_id <> rb.user_id
    """
    _RESULT = """
        CASE WHEN ra.side = rb.side THEN 'partners'
             WHEN ra.place < rb.place THEN 'a_ahead'
             WHEN rb.place < ra.place THEN 'b_ahead'
             ELSE 'level' END
    """

    def __init__(self, *, a: User, b: User, game: str) -> None:
        self._from = self._SQL.format(t=PlayerResult._meta.db_table)
        self._params: list[int | str] = [b.pk, a.pk, game]

    def count(self) -> int:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*) {self._from}", self._params)
            return int(cursor.fetchone()[0])

    def summary(self) -> dict[str, int]:
        found = dict.fromkeys(("a_ahead", "b_ahead", "level", "partners"), 0)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {self._RESULT} AS result, COUNT(*) {self._from} GROUP BY 1",
                self._params,
            )
            for result, n in cursor.fetchall():
                found[result] = n
        return found

    def __getitem__(self, page: slice) -> list[PlayerResult]:
        start = page.start or 0
        columns = ", ".join(
            f"ra.{f.column}" for f in PlayerResult._meta.concrete_fields
        )
        return list(
            PlayerResult.objects.raw(
                f"SELECT {columns}, rb.seat AS b_seat, rb.place AS b_place, "
                f"rb.score AS b_score, {self._RESULT} AS result {self._from} "
                "ORDER BY ra.finished_at, ra.table_id, ra.seat, rb.seat "
                "LIMIT %s OFFSET %s",
                [*self._params, page.stop - start, start],
            )
        )


def head_to_head_get(*, a: User, b: User, game: str) -> dict[str, Any]:
    """How ``a`` and ``b`` fared at the counted tables of ``game`` they both
    sat at: who finished ahead, level, or (Alkort partnerships) as partners.

    One meeting per pair of seats: a house bot holding two seats of one table
    played it as two copies (as its counters and rating update count it), so
    the other player meets each copy, and that table gives two rows.
    ``matches`` pages the meetings, oldest first, for the API: the summary is
    counted and the page read by the database, so two accounts that shared
    tens of thousands of tables (two bots) cost a request no more than a page.
    """
    meetings = _Meetings(a=a, b=b, game=game)
    summary = meetings.summary()
    return {
        "summary": {"matches": sum(summary.values()), **summary},
        "matches": meetings,
    }


def head_to_head_json(row: PlayerResult) -> dict[str, Any]:
    """One row of ``head_to_head_get``'s matches, as the API shows it."""
    return {
        "table": row.table_id,
        "finished_at": row.finished_at,
        "players": row.players,
        "rated": row.rated,
        "a": {"seat": row.seat, "place": row.place, "score": row.score},
        "b": {"seat": row.b_seat, "place": row.b_place, "score": row.b_score},  # type: ignore[attr-defined]
        "result": row.result,  # type: ignore[attr-defined]
    }


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


def table_list_uncounted(*, grace_seconds: float = 0, limit: int = 1000) -> list[int]:
    """Finished tables with no ``CountedTable`` marker, oldest finish first:
    the queue of tables waiting for their count (``PendingTable``), read in
    its finish-order index.

    ``grace_seconds`` leaves alone tables that finished just now (their task
    is most likely on its way).
    """
    cutoff = timezone.now() - timedelta(seconds=grace_seconds)
    return list(
        PendingTable.objects.filter(
            Q(finished_at__lte=cutoff) | Q(finished_at__isnull=True),
            table__status=TableStatus.FINISHED,
        )
        .order_by("finished_at", "table_id")
        .values_list("table_id", flat=True)[:limit]
    )
