"""Rounds: seat the next one, start it, finish it.

* ``round_plan`` works out the next round's seating without writing anything
  (the admin shows it for confirmation); ``round_seat`` stores that same
  plan, refusing if it changed since it was shown.
* ``round_start`` opens and starts one ``games.Table`` per round table through
  the games services (``table_create``, ``table_join``, ``table_add_bot``,
  ``table_start``), as the organiser; bot turns follow on commit as at any
  table.
* ``round_finish`` closes a round once every table's match has ended, and the
  tournament after its last round.
* ``tournament_finish`` ends a running tournament between rounds, before its
  planned last round (too few players left, or no time for more).
* ``entry_tables_leave`` hands a withdrawn entry's seats at tables still in
  play to bots, so a player who cannot go on does not stall the round.

Every service locks the tournament row for its whole transaction, so two
organisers clicking at once cannot seat or start a round twice. A refused
action raises a ``games.errors`` error and writes nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import get_text_list

from accounts.models import User
from games import services as games_services
from games.errors import Conflict
from games.models import Seat, Table, TableStatus
from games.services.locking import table_lock
from tournaments import seating, selectors
from tournaments.models import (
    Bye,
    Entry,
    FillPolicy,
    Round,
    RoundSeat,
    RoundStatus,
    RoundTable,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from tournaments.services.registration import tournament_lock
from tournaments.services.setup import layout_get
from tournaments.services.standings import standings_recompute, standings_rows


@dataclass(frozen=True)
class RoundProposal:
    """The next round's seating, with a fingerprint to confirm it by."""

    number: int
    plan: seating.Plan
    entries: dict[int, Entry]
    numbers: dict[int, int]
    #: The seated (not started) round this seating replaces, if any: one
    #: of its players has withdrawn since it was seated.
    replaces: int | None = None

    @property
    def fingerprint(self) -> str:
        data = json.dumps(
            {"round": self.number, "tables": self.plan.tables, "byes": self.plan.byes}
        )
        return hashlib.sha256(data.encode()).hexdigest()[:16]


def _last_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


def _unfinished(rnd: Round) -> list[int]:
    """The ids of ``rnd``'s tables whose match has not ended, as committed."""
    return sorted(
        t.table.pk
        for t in rnd.tables.select_related("table")
        if t.table is not None and t.table.status != TableStatus.FINISHED
    )


def _waiting_for_deactivated(tables: list[int]) -> str:
    """What unblocks ``tables`` held by a person whose account is deactivated.

    An untimed table waits for them for ever (they cannot log in to play):
    withdrawing them hands their seat to a bot. Empty when there is none.
    """
    held = sorted(
        Seat.objects.filter(
            table_id__in=tables, bot_level__isnull=True, user__is_active=False
        ).values_list("user__username", "table_id")
    )
    if not held:
        return ""
    listed = [f"{name} (table {table})" for name, table in held]
    if len(held) == 1:
        name, table = held[0]
        return (
            f" {name}'s account is deactivated (table {table}): withdraw them and a "
            "bot plays their seat to the end."
        )
    return (
        f" The accounts of {get_text_list(listed, 'and')} are "
        "deactivated: withdraw them and bots play their seats to the end."
    )


def withdrawn_in(rnd: Round) -> list[str]:
    """Usernames of withdrawn entries seated (or given a bye) in ``rnd``."""
    seated = Entry.objects.filter(withdrawn=True, seats__round_table__round=rnd)
    byes = Entry.objects.filter(withdrawn=True, byes__round=rnd)
    return sorted({e.player.username for e in (seated | byes).select_related("player")})


def missing_from(rnd: Round) -> list[str]:
    """Usernames of entries in the event but neither seated nor given a bye
    in ``rnd``: brought back (*withdrawn* unticked) since it was seated."""
    present = Entry.objects.filter(
        Q(seats__round_table__round=rnd) | Q(byes__round=rnd)
    ).values("pk")
    return sorted(
        rnd.tournament.entries.filter(withdrawn=False)
        .exclude(pk__in=present)
        .values_list("player__username", flat=True)
    )


def _deactivated_check(entries: list[Entry], refused: str) -> None:
    """Refuse (``deactivated``) when a player of ``entries`` has a deactivated
    account: they cannot log in, so their table would wait for them forever
    (without a clock). The organiser withdraws them first."""
    idle = sorted(e.player.username for e in entries if not e.player.is_active)
    if idle:
        raise Conflict(
            "deactivated",
            f"{refused}: the account of {', '.join(idle)} "
            f"{'is' if len(idle) == 1 else 'are'} deactivated, so they cannot "
            "play. Withdraw them (tick withdrawn on their entry), or reactivate "
            "the account, then try again.",
        )


def round_plan(*, tournament: Tournament) -> RoundProposal:
    """The seating of the next round; raises ``Conflict`` if it cannot be seated.

    Reads only. Refused: a draft or finished tournament, a round not yet
    finished, every round played, too few players, an incomplete team. A
    round seated but not started whose players include a withdrawn entry is
    seated again (the proposal ``replaces`` it); otherwise a seated round is
    refused as already seated.
    """
    if tournament.status == TournamentStatus.DRAFT:
        raise Conflict(
            "not_open", f"Open registration for {tournament.name!r} before seating."
        )
    if tournament.status == TournamentStatus.FINISHED:
        raise Conflict(
            "tournament_finished", f"{tournament.name!r} has finished: nothing to seat."
        )
    last = _last_round(tournament)
    replaces: Round | None = None
    if (
        last is not None
        and last.status == RoundStatus.SEATED
        and (withdrawn_in(last) or missing_from(last))
    ):
        replaces = last
        last = tournament.round_set.filter(number__lt=last.number).last()
    if last is not None and last.status == RoundStatus.SEATED:
        raise Conflict(
            "round_already_seated",
            f"Round {last.number} is already seated: start it before seating another.",
        )
    if last is not None and last.status == RoundStatus.RUNNING:
        unfinished = _unfinished(last)
        if unfinished:
            listed = ", ".join(map(str, unfinished))
            raise Conflict(
                "round_unfinished",
                f"Round {last.number} still has {len(unfinished)} table"
                f"{'s' if len(unfinished) > 1 else ''} in play ({listed}): "
                "wait for them, then finish the round.",
            )
        raise Conflict(
            "round_unfinished",
            f"Round {last.number} is not finished: finish it before seating the next.",
        )
    number = 1 if last is None else last.number + 1
    entries = selectors.active_entries(tournament=tournament)
    _deactivated_check(entries, f"Round {number} cannot be seated")
    if number == 1:
        active = {e.pk for e in entries}
        order = [
            pk for pk in selectors.seat_order(tournament=tournament) if pk in active
        ]
        numbers = {pk: i + 1 for i, pk in enumerate(order)}
    else:
        numbers = {e.pk: e.number or 0 for e in tournament.entries.all()}
    planned_rounds = tournament.rounds
    if tournament.format == TournamentFormat.ROUND_ROBIN and number == 1:
        planned_rounds = seating.round_robin_rounds(len(entries))
    if number > planned_rounds:
        raise Conflict(
            "all_rounds_played",
            f"{tournament.name!r} has played all its rounds ({planned_rounds}).",
        )
    layout = layout_get(tournament=tournament)
    rounds = [
        r
        for r in selectors.rounds_get(tournament=tournament)
        if replaces is None or r.pk != replaces.pk
    ]
    history = selectors.history_get(rounds=rounds, layout=layout)
    bots = tournament.fill_policy == FillPolicy.BOTS
    try:
        if tournament.format == TournamentFormat.ROUND_ROBIN:
            plan = _round_robin(
                tournament, entries, numbers, number, layout, history, bots
            )
        else:
            units = _units(tournament, entries, numbers)
            plan = seating.swiss_plan(
                units=units,
                layout=layout,
                history=history,
                fill_with_bots=bots,
                first_round=number == 1,
            )
    except seating.SeatingError as exc:
        raise Conflict("cannot_seat", str(exc)) from None
    by_id = {e.pk: e for e in entries}
    return RoundProposal(
        number=number,
        plan=plan,
        entries=by_id,
        numbers=numbers,
        replaces=replaces.pk if replaces is not None else None,
    )


def _round_robin(
    tournament: Tournament,
    entries: list[Entry],
    numbers: dict[int, int],
    number: int,
    layout: seating.Layout,
    history: seating.History,
    bots: bool,
) -> seating.Plan:
    # Later rounds too: withdrawals can leave one player, whom no table could
    # seat (only a bye, or a bot), as a Swiss round refuses.
    if len(entries) < 2:
        raise seating.SeatingError(
            f"Too few players for one table: {len(entries)} "
            f"player{'' if len(entries) == 1 else 's'}, a table seats 2."
        )
    active = {e.pk for e in entries}
    roster_ids = sorted(
        (pk for pk, n in numbers.items() if n), key=lambda pk: numbers[pk]
    )
    if number == 1:
        roster_ids = [pk for pk in roster_ids if pk in active]
    else:
        started = {
            s.entry_id
            for s in RoundSeat.objects.filter(
                round_table__round__tournament=tournament,
                round_table__round__number=1,
                entry__isnull=False,
            )
        } | set(
            Bye.objects.filter(
                round__tournament=tournament, round__number=1
            ).values_list("entry_id", flat=True)
        )
        roster_ids = [pk for pk in roster_ids if pk in started]
    roster = [pk if pk in active else None for pk in roster_ids]
    return seating.round_robin_plan(
        roster=roster,
        round_number=number,
        layout=layout,
        history=history,
        fill_with_bots=bots,
    )


def _units(
    tournament: Tournament, entries: list[Entry], numbers: dict[int, int]
) -> list[seating.Unit]:
    """Entries (or teams) ranked by the standings now, best first."""
    rows = standings_rows(tournament=tournament)
    position = {row.entry: i for i, row in enumerate(rows)}
    points = {row.entry: row.points for row in rows}
    ranked = sorted(entries, key=lambda e: (position.get(e.pk, 1 << 30), e.pk))
    if not tournament.team_event:
        return [
            seating.Unit(key=e.pk, members=(e.pk,), points=points[e.pk]) for e in ranked
        ]
    teams: dict[str, list[Entry]] = defaultdict(list)
    for entry in ranked:
        teams[entry.team].append(entry)
    incomplete = sorted(
        f"{name or '(no team)'} ({', '.join(m.player.username for m in members)} alone)"
        for name, members in teams.items()
        if len(members) != 2
    )
    if incomplete:
        # Say how to go on: mid-event no partner can be entered any more, so
        # the team leaves (its player left is withdrawn too).
        remedy = (
            "enter a partner or withdraw the player left"
            if tournament.status == TournamentStatus.REGISTRATION
            else "withdraw the player left to seat the round without that team"
        )
        raise seating.SeatingError(
            "Every team needs two players still in the event; incomplete: "
            + "; ".join(incomplete)
            + f". To go on, {remedy}."
        )
    units = []
    seen: set[str] = set()
    for entry in ranked:
        if entry.team in seen:
            continue
        seen.add(entry.team)
        members = sorted(teams[entry.team], key=lambda e: numbers.get(e.pk, 0))
        units.append(
            seating.Unit(
                key=members[0].pk,
                members=tuple(m.pk for m in members),
                points=points[members[0].pk],
            )
        )
    return units


@transaction.atomic
def round_seat(*, tournament_id: int, fingerprint: str | None = None) -> Round:
    """Store the next round's seating. Lock: the tournament row.

    ``fingerprint`` is the one shown for confirmation: if the plan has changed
    since (an entry withdrew, a result came in), nothing is written. The
    first round gives the starting numbers, closes registration and sets a
    round robin's number of rounds.
    """
    tournament = tournament_lock(tournament_id)
    proposal = round_plan(tournament=tournament)
    if fingerprint is not None and fingerprint != proposal.fingerprint:
        raise Conflict(
            "plan_changed",
            "The seating changed since it was shown (an entry or a result changed): "
            "review it again.",
        )
    if proposal.replaces is not None:
        # Seated, never started (no table exists): seat it again from scratch.
        Round.objects.filter(pk=proposal.replaces, status=RoundStatus.SEATED).delete()
    if proposal.number == 1:
        for entry in tournament.entries.all():
            entry.number = proposal.numbers.get(entry.pk)
            entry.save(update_fields=["number"])
        tournament.status = TournamentStatus.RUNNING
        tournament.started_at = timezone.now()
        if tournament.format == TournamentFormat.ROUND_ROBIN:
            tournament.rounds = seating.round_robin_rounds(len(proposal.entries))
        # Seating round 1 (again) is what sets a round robin's rounds.
        tournament.save(
            update_fields=["status", "started_at", "rounds"], setup_change=True
        )
    rnd = Round.objects.create(tournament=tournament, number=proposal.number)
    for index, seats in enumerate(proposal.plan.tables, start=1):
        table = RoundTable.objects.create(round=rnd, number=index)
        RoundSeat.objects.bulk_create(
            RoundSeat(
                round_table=table,
                seat=seat,
                entry_id=entry,
                bot_level=tournament.bot_level if entry is None else None,
            )
            for seat, entry in enumerate(seats)
        )
    Bye.objects.bulk_create(Bye(round=rnd, entry_id=e) for e in proposal.plan.byes)
    return rnd


def _table_kwargs(tournament: Tournament) -> dict[str, object]:
    """Extra ``table_create`` arguments: the clock, once tables accept one."""
    import inspect

    params = inspect.signature(games_services.table_create).parameters
    if tournament.time_control is not None and "time_control" in params:
        return {"time_control": tournament.time_control}
    return {}


@transaction.atomic
def round_start(*, tournament_id: int, user: User) -> Round:
    """Open and deal every table of the seated round, ``user`` as organiser.

    Lock: the tournament row, then each new table's row (the games services).
    """
    tournament = tournament_lock(tournament_id)
    last = _last_round(tournament)
    if last is None or last.status != RoundStatus.SEATED:
        what = (
            "no round is seated"
            if last is None or last.status == RoundStatus.FINISHED
            else f"round {last.number} has already started"
        )
        raise Conflict("no_seated_round", f"Nothing to start: {what}.")
    gone = withdrawn_in(last)
    if gone:
        raise Conflict(
            "withdrawn_seated",
            f"Round {last.number} cannot start: {', '.join(gone)} "
            f"{'has' if len(gone) == 1 else 'have'} withdrawn since it was seated. "
            f"Seat round {last.number} again (Seat next round) to seat it "
            "without them.",
        )
    back = missing_from(last)
    if back:
        raise Conflict(
            "withdrawn_seated",
            f"Round {last.number} cannot start: {', '.join(back)} "
            f"{'is' if len(back) == 1 else 'are'} back in the event since it was "
            f"seated. Seat round {last.number} again (Seat next round) to seat it "
            "with them.",
        )
    _deactivated_check(
        list(
            Entry.objects.filter(seats__round_table__round=last)
            .select_related("player")
            .distinct()
        ),
        f"Round {last.number} cannot start",
    )
    extra = _table_kwargs(tournament)
    for round_table in last.tables.prefetch_related("seats__entry__player"):
        table = games_services.table_create(
            user=user,
            game=tournament.game,
            players=tournament.table_size,
            options=tournament.options,
            rated=tournament.rated,
            watch=True,
            **extra,  # type: ignore[arg-type]
        )
        for seat in round_table.seats.all():
            if seat.entry is not None:
                games_services.table_join(
                    table_id=table.pk, user=seat.entry.player, seat=seat.seat
                )
            else:
                games_services.table_add_bot(
                    table_id=table.pk,
                    user=user,
                    seat=seat.seat,
                    level=seat.bot_level or tournament.bot_level,
                )
        games_services.table_start(table_id=table.pk, user=user)
        round_table.table = table
        round_table.save(update_fields=["table"])
    last.status = RoundStatus.RUNNING
    last.started_at = timezone.now()
    last.save(update_fields=["status", "started_at"])
    transaction.on_commit(lambda: _standings_queue(tournament.pk), robust=True)
    return last


def _standings_queue(tournament_id: int) -> None:
    """On commit: queue the standings (the tournaments sweep catches a task
    that a broker down or hung lost, ``config.broker``)."""
    from config.broker import task_send
    from tournaments.tasks import tournament_standings_update

    task_send(tournament_standings_update, (tournament_id,))


def _tables_lock(rnd: Round) -> None:
    """Lock ``rnd``'s tables, in id order, until the transaction ends.

    A table's last move holds its row until it commits; waiting for it here
    means the round is judged with that match ended, not as it stood a moment
    before. ``FOR NO KEY UPDATE``: it waits for a move (and holds off the
    next), not for a socket registering on the table (``FOR KEY SHARE``).
    The fixed order keeps two lockers of several tables from deadlocking.
    """
    list(
        Table.objects.filter(tournament_table__round=rnd)
        .order_by("pk")
        .select_for_update(no_key=True, of=("self",))
        .values_list("pk", flat=True)
    )


@transaction.atomic
def round_finish(*, tournament_id: int) -> Round:
    """Close the running round once all its matches have ended.

    Lock: the tournament row, then the round's tables in id order
    (``_tables_lock``), so a match whose last move is being stored is
    waited for and counted as ended. The standings are recomputed; after the
    last round the tournament is finished.
    """
    tournament = tournament_lock(tournament_id)
    last = _last_round(tournament)
    if last is None or last.status != RoundStatus.RUNNING:
        raise Conflict(
            "no_running_round",
            "Nothing to finish: no round is in play"
            + (
                f" (round {last.number} is only seated)."
                if last is not None and last.status == RoundStatus.SEATED
                else "."
            ),
        )
    _tables_lock(last)
    unfinished = _unfinished(last)
    if unfinished:
        listed = ", ".join(map(str, unfinished))
        raise Conflict(
            "round_unfinished",
            f"Round {last.number} cannot finish: {len(unfinished)} table"
            f"{'s are' if len(unfinished) > 1 else ' is'} still in play ({listed})."
            + _waiting_for_deactivated(unfinished),
        )
    last.status = RoundStatus.FINISHED
    last.finished_at = timezone.now()
    last.save(update_fields=["status", "finished_at"])
    if last.number >= tournament.rounds:
        _tournament_close(tournament)
    standings_recompute(tournament_id=tournament.pk)
    return last


def _tournament_close(tournament: Tournament) -> None:
    """Mark ``tournament`` finished (its row locked by the caller)."""
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])


@transaction.atomic
def tournament_finish(*, tournament_id: int) -> tuple[Tournament, int | None]:
    """End a running tournament early, between rounds. Lock: the tournament row.

    Returns the tournament and the number of the round discarded, if any: a
    round seated but not started has no tables and nothing played, so it is
    dropped (as seating it again drops it); without that an organiser who
    had seated the next round could only stop by playing it, since a seated
    round cannot be finished. Refused while a round is in play (finish it
    first) and unless the tournament is running. The standings stay those of
    the rounds played.
    """
    tournament = tournament_lock(tournament_id)
    if tournament.status != TournamentStatus.RUNNING:
        raise Conflict(
            "not_running",
            f"{tournament.name!r} is not running: only a running tournament can "
            "be ended early.",
        )
    last = _last_round(tournament)
    discarded = None
    if last is not None and last.status == RoundStatus.SEATED:
        discarded = last.number
        last.delete()
        last = _last_round(tournament)
    if last is not None and last.status != RoundStatus.FINISHED:
        raise Conflict(
            "round_unfinished",
            f"Round {last.number} is in play: finish it (Finish round, once its "
            "tables have ended) before ending the tournament.",
        )
    _tournament_close(tournament)
    standings_recompute(tournament_id=tournament.pk)
    return tournament, discarded


@transaction.atomic
def entry_tables_leave(*, entry: Entry) -> list[int]:
    """Hand ``entry``'s seats at the tournament's tables in play to basic bots.

    For an entry the organiser has marked withdrawn while its round is in
    play: its player leaves those matches as if they had pressed Leave
    (``games.services.table_leave``), so a bot plays the seat to the end and
    the player is credited with the result; the round can then finish.
    Returns the ids of those tables.

    Lock: each table's row, in id order, checked again under the lock: a
    table whose match ended meanwhile (its last move was being stored), or
    where the player no longer holds a seat, is skipped and left as it is.
    """
    candidates = list(
        Table.objects.filter(
            tournament_table__round__tournament_id=entry.tournament_id,
            status=TableStatus.PLAYING,
            seats__user_id=entry.player_id,
            seats__bot_level__isnull=True,
        )
        .order_by("pk")
        .values_list("pk", flat=True)
        .distinct()
    )
    left = []
    for table_id in candidates:
        table = table_lock(table_id)
        if table.status != TableStatus.PLAYING:
            continue
        seated = table.seats.filter(user_id=entry.player_id, bot_level__isnull=True)
        if not seated.exists():
            continue
        games_services.table_leave(table_id=table_id, user=entry.player)
        left.append(table_id)
    return left
