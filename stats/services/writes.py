"""Row writes shared by the task, the recount and the rebuild."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from stats.models import GameStat, PlayerGameStat, PlayerResult, Rating, RatingChange
from stats.projection import Contribution, counters_add, counters_empty
from stats.ratings import Change, Entry, RatingBook
from stats.sources import TableInput


def results_rows(source: TableInput, contribution: Contribution) -> list[PlayerResult]:
    rated = contribution.rating_input is not None
    return [
        PlayerResult(
            table_id=source.table_id,
            seat=r.seat,
            user_id=r.user_id,
            game=source.game,
            players=source.players,
            side=r.side,
            place=r.place,
            score=int(r.score),
            won=r.won,
            rated=rated,
            finished_at=source.finished_at,
        )
        for r in contribution.results
    ]


def per_user(contribution_json: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """A contribution's seat counters summed per user (a bot may hold several seats)."""
    out: dict[int, dict[str, Any]] = {}
    for seat in contribution_json["seats"]:
        counters_add(out.setdefault(seat["user"], {}), seat["counters"])
    return out


def stats_add(game: str, contribution_json: dict[str, Any], sign: int = 1) -> None:
    """Add (``sign=-1``: take out) one table's sums to the player and game rows.

    Lock: the caller holds the game's writer lock. Rows left all zero are
    deleted, so taking a table out leaves what a rebuild without it would.
    """
    users = per_user(contribution_json)
    rows = {
        r.user_id: r
        for r in PlayerGameStat.objects.filter(game=game, user_id__in=list(users))
    }
    keep: list[PlayerGameStat] = []
    empty: list[int] = []
    for user_id in sorted(users):
        row = rows.get(user_id) or PlayerGameStat(
            user_id=user_id, game=game, counters={}
        )
        counters_add(row.counters, users[user_id], sign)
        if counters_empty(row.counters):
            empty.append(user_id)
        else:  # no pk: one upsert on (user, game) for new and old rows alike
            keep.append(
                PlayerGameStat(user_id=user_id, game=game, counters=row.counters)
            )
    PlayerGameStat.objects.bulk_create(
        keep,
        update_conflicts=True,
        unique_fields=["user", "game"],
        update_fields=["counters"],
    )
    if empty:
        PlayerGameStat.objects.filter(game=game, user_id__in=empty).delete()
    game_row = GameStat.objects.filter(game=game).first() or GameStat(
        game=game, counters={}
    )
    counters_add(game_row.counters, contribution_json["game"], sign)
    if counters_empty(game_row.counters):
        GameStat.objects.filter(game=game).delete()
    else:
        GameStat.objects.bulk_create(
            [GameStat(game=game, counters=game_row.counters)],
            update_conflicts=True,
            unique_fields=["game"],
            update_fields=["counters"],
        )


def book_load(game: str, user_ids: Iterable[int]) -> RatingBook:
    rows = Rating.objects.filter(game=game, user_id__in=list(user_ids))
    return RatingBook({r.user_id: Entry(r.mu, r.sigma, r.matches) for r in rows})


def book_save(game: str, book: RatingBook, user_ids: Iterable[int]) -> None:
    """Upsert the ratings of ``user_ids``; a rating with no match left is removed."""
    keep, drop = [], []
    for user_id in sorted(set(user_ids)):
        entry = book.entries.get(user_id)
        if entry is None or entry.matches == 0:
            drop.append(user_id)
        else:
            keep.append(
                Rating(
                    user_id=user_id,
                    game=game,
                    mu=entry.mu,
                    sigma=entry.sigma,
                    matches=entry.matches,
                )
            )
    Rating.objects.bulk_create(
        keep,
        update_conflicts=True,
        unique_fields=["user", "game"],
        update_fields=["mu", "sigma", "matches", "updated_at"],
    )
    if drop:
        Rating.objects.filter(game=game, user_id__in=drop).delete()


def change_rows(game: str, changes: Iterable[Change]) -> list[RatingChange]:
    return [
        RatingChange(
            table_id=c.table_id,
            user_id=c.user_id,
            seat=c.seat,
            game=game,
            finished_at=c.finished_at,
            place=c.place,
            expected_place=c.expected_place,
            before_mu=c.before[0],
            before_sigma=c.before[1],
            after_mu=c.after[0],
            after_sigma=c.after[1],
            matches=c.matches,
        )
        for c in changes
    ]
