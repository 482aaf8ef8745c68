"""What an attacker can fetch about a table, and the checks the leak tests apply.

``Audiences`` holds one client per seat (the people seated), one for an
anonymous spectator, one for a logged-in person who is not seated, and a
staff member with view permissions in the admin (not a superuser). Its
methods fetch every payload each of them can read about a table and hand
each one, labelled, to a ``Checker`` that knows what that audience may see
(``tests/rules/leak_oracle.py``).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import Permission
from django.test import Client

import rules
from accounts.models import User
from games import event_store, frames
from games.models import GameEvent, Seat, Table
from tests.accounts.factories import UserFactory
from tests.games.conftest import Player
from tests.rules.leak_oracle import Audience

#: A check of one payload: ``(audience, label, seq, body)`` where ``body`` is
#: JSON (parsed) or text, and ``seq`` the point of the match it shows.
Check = Callable[[Audience, str, int, Any], None]


@dataclass
class Audiences:
    """Everyone who can look at a table, and what they can fetch."""

    seats: dict[int, Player]
    spectator: Player
    stranger: Player
    staff: Client
    users: dict[int, User] = field(default_factory=dict)

    @classmethod
    def of(cls, table: Table, player: Callable[..., Player]) -> Audiences:
        users = {
            s.index: s.user
            for s in table.seats.select_related("user")
            if s.bot_level is None
        }
        staff_user = UserFactory(is_staff=True)
        staff_user.user_permissions.set(
            Permission.objects.filter(codename__startswith="view_")
        )
        staff = Client()
        staff.force_login(staff_user)
        return cls(
            seats={seat: player(user) for seat, user in users.items()},
            spectator=player(anonymous=True),
            stranger=player(),
            staff=staff,
            users=users,
        )

    def viewers(self) -> Iterator[tuple[Audience, Player]]:
        """Everyone reading through the API: seats, then spectators."""
        yield from self.seats.items()
        yield None, self.spectator
        yield None, self.stranger

    # --- what each of them reads ------------------------------------------

    def rest(self, table: Table, check: Check, after: dict[Any, int]) -> None:
        """The table and the events since each viewer's last look."""
        for audience, who in self.viewers():
            detail = who.get(f"/api/tables/{table.pk}/")
            assert detail.status_code == 200, detail.content
            body = detail.json()
            assert body["seat"] == audience
            check(audience, "GET table", table.seq, body)
            key = id(who)
            events = who.get(f"/api/tables/{table.pk}/events/", after=after.get(key, 0))
            assert events.status_code == 200, events.content
            for item in events.json():
                check(audience, f"event {item['seq']}", item["seq"], item)
            after[key] = table.seq

    def everything(self, table: Table, check: Check) -> None:
        """Every other read about the table an audience has (the heavy set)."""
        seq = table.seq
        for audience, who in self.viewers():
            user_id = who.user.pk if who.user else None
            export = who.get(f"/api/tables/{table.pk}/export/")
            assert export.status_code == 200
            body = export.json()
            check(audience, "export table", seq, body["table"])
            for item in body["events"]:
                check(audience, f"export event {item['seq']}", item["seq"], item)
            for path in (
                f"/api/tables/{table.pk}/verify/",
                f"/tables/{table.pk}/replay/frames/",
                f"/tables/{table.pk}/replay/frames/?seat=0",
            ):
                response = who.get(path)
                assert response.status_code == 409, (path, response.status_code)
                check(audience, path, seq, response.content.decode())
            for path in (f"/tables/{table.pk}/", f"/tables/{table.pk}/replay/"):
                response = who.get(path)
                assert response.status_code == 200
                check(audience, path, seq, response.content.decode())
            listed = who.get("/api/tables/", mine="true" if who.user else "")
            check(audience, "table list", seq, listed.json())
            # What a live socket reads: its first frame, and a resync.
            frame = frames.frame_state(table_id=table.pk, user_id=user_id, after=None)
            assert frame is not None
            check(audience, "socket first frame", seq, frame)
            resync = frames.frame_state(
                table_id=table.pk, user_id=user_id, after=max(seq - 5, 0)
            )
            assert resync is not None
            check(audience, "socket resync view", seq, resync["view"])
            for item in resync["events"]:
                check(audience, f"socket event {item['seq']}", item["seq"], item)
            check(audience, "presence", seq, frames.presence_list(table_id=table.pk))
        for user in self.users.values():
            for path in (
                f"/api/stats/players/{user.username}/",
                f"/api/stats/players/{user.username}/ratings/{table.game}/",
                f"/players/{user.username}/",
            ):
                response = self.spectator.get(path)
                assert response.status_code in (200, 404), path
                check(None, path, seq, response.content.decode())
        for path in (
            f"/api/stats/leaderboards/{table.game}/",
            f"/api/stats/games/{table.game}/",
        ):
            check(None, path, seq, self.spectator.get(path).content.decode())
        self.admin(table, check)

    def admin(self, table: Table, check: Check) -> None:
        """The admin as staff with view permissions: the table, its events."""
        pages = [
            f"/admin/games/table/{table.pk}/change/",
            f"/admin/games/table/?q={table.pk}",
            f"/admin/games/gameevent/?q={table.pk}",
        ]
        for path in pages:
            response = self.staff.get(path)
            assert response.status_code == 200, (path, response.status_code)
            check(None, f"admin {path}", table.seq, response.content.decode())
        for pk, seq in _events_to_open(table):
            path = f"/admin/games/gameevent/{pk}/change/"
            response = self.staff.get(path)
            assert response.status_code == 200, (path, response.status_code)
            check(None, f"admin event {seq}", seq, response.content.decode())


def _events_to_open(table: Table) -> list[tuple[int, int]]:
    """The events whose admin page is read: the first of each type (each
    type's payload is drawn its own way) and the three newest, whose cards
    are the likeliest to be still hidden. Every event's page at every
    checkpoint cost an eighth of these tests' time (the pages grow with the
    match) to read the same code again."""
    rows = list(
        GameEvent.objects.filter(table=table)
        .order_by("seq")
        .values_list("pk", "seq", "type")
    )
    chosen = {rows_type: (pk, seq) for pk, seq, rows_type in reversed(rows)}
    picked = set(chosen.values()) | {(pk, seq) for pk, seq, _ in rows[-3:]}
    return sorted(picked, key=lambda row: row[1])


def table_with_history(table: Table, history: list[rules.Event]) -> Table:
    """A copy of ``table`` (same people, seats and seed) whose log is ``history``."""
    game = rules.get_game(table.game)
    copy = Table.objects.create(
        game=table.game,
        options=table.options,
        players=table.players,
        status=table.status,
        rated=table.rated,
        created_by=table.created_by,
        seq=len(history),
        seed=table.seed,
        seed_sha256=table.seed_sha256,
        state=game.dump_state(game.replay(history)),
        started_at=table.started_at,
    )
    Seat.objects.bulk_create(
        Seat(table=copy, index=s.index, user=s.user, bot_level=s.bot_level)
        for s in table.seats.all()
    )
    stored = event_store.load(table)
    GameEvent.objects.bulk_create(
        GameEvent(
            table=copy,
            seq=original.seq,
            type=event.type,
            version=event.version,
            payload=event.payload,
            seat=original.seat,
        )
        for original, event in zip(stored, history, strict=True)
    )
    return copy


# --- logs -----------------------------------------------------------------------


class LogBook(logging.Handler):
    """Every log record of every logger, at DEBUG, formatted as a handler would."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))

    def since(self, mark: int) -> list[str]:
        return self.lines[mark:]


@contextmanager
def every_log_at_debug() -> Iterator[LogBook]:
    """Every logger at DEBUG, each record kept (non-propagating ones too)."""
    book = LogBook()
    manager = logging.root.manager
    loggers = [logging.root] + [
        item for item in manager.loggerDict.values() if isinstance(item, logging.Logger)
    ]
    levels = {lg: lg.level for lg in loggers}
    for lg in loggers:
        lg.setLevel(logging.DEBUG)
        if lg is logging.root or not lg.propagate:
            lg.addHandler(book)
    try:
        yield book
    finally:
        for lg, level in levels.items():
            lg.setLevel(level)
            if book in lg.handlers:
                lg.removeHandler(book)


def body_text(body: Any) -> str:
    return body if isinstance(body, str) else json.dumps(body)


# --- indistinguishability: two tables an audience must not tell apart ----------

#: Fields that say which table it is, not what happened at it.
PER_TABLE = ("id", "created_at", "active_at", "started_at", "finished_at")


def table_unnamed(table: Table, text: str) -> str:
    """``text`` with the table's id (``table 7``, ``/tables/7/``) left out."""
    return re.sub(rf"(?i)(\btables?[ /#]){table.pk}\b", r"\1<table>", text)


def without_table(table: Table, body: Any) -> Any:
    """``body`` without what names the table rather than the match."""
    if isinstance(body, dict):
        return {
            k: without_table(table, v)
            for k, v in body.items()
            if k not in PER_TABLE and not (k == "table" and v == table.pk)
        }
    if isinstance(body, list):
        return [without_table(table, v) for v in body]
    if isinstance(body, str):
        return table_unnamed(table, body)
    return body


@dataclass
class Reader:
    """Everything one audience reads about a table, and the moves it tries."""

    who: Player
    seat: Audience

    def read(self, table: Table, tries: list[dict[str, Any]]) -> dict[str, Any]:
        """What it reads, by channel, without the table's own id: the table,
        the events (all, and since a recent seq), the export, the verify
        refusal, the socket's first and catch-up frames, presence, and the
        answers to ``tries`` (each sent at the table's seq and a stale one;
        never a move the seat may make now)."""
        table.refresh_from_db()
        seq, path = table.seq, f"/api/tables/{table.pk}"
        user_id = self.who.user.pk if self.who.user else None
        out: dict[str, Any] = {}
        for name, url, params in (
            ("table", f"{path}/", {}),
            ("events", f"{path}/events/", {}),
            ("events since", f"{path}/events/", {"after": max(seq - 3, 0)}),
            ("export", f"{path}/export/", {}),
            ("verify", f"{path}/verify/", {}),
        ):
            response = self.who.get(url, **params)
            out[name] = (response.status_code, without_table(table, response.json()))
        for name, after in (("socket first", None), ("socket catch-up", seq - 1)):
            frame = frames.frame_state(table_id=table.pk, user_id=user_id, after=after)
            out[name] = without_table(table, frame)
        out["presence"] = frames.presence_list(table_id=table.pk)
        game = rules.get_game(table.game)
        state = game.load_state(table.state)
        legal = game.legal_actions(state, self.seat) if self.seat is not None else []
        for action in tries:
            for expected in (seq, seq - 1):
                if action in legal and expected == seq:
                    continue  # a real move, not a probe
                response = self.who.post(
                    f"{path}/actions/", {"action": action, "expected_seq": expected}
                )
                assert response.status_code in (400, 401, 403, 409), response.content
                out[f"try {action} at {expected}"] = (
                    response.status_code,
                    without_table(table, response.json()),
                )
        table.refresh_from_db()
        assert table.seq == seq, "a probe was played"
        return out


def reads_alike(
    readers: list[Reader],
    real: Table,
    alt: Table,
    tries: list[dict[str, Any]],
    secret: str,
) -> None:
    """Every reader reads the same from ``real`` and ``alt`` (which differ
    only in ``secret``), on every channel, and the log lines written while it
    reads (every logger at DEBUG) are the same too, but for the slow-move
    warnings: how long a move waited depends on the machine's load."""
    for reader in readers:
        with every_log_at_debug() as book:
            mine = reader.read(real, tries)
            mine_logs = _logged(real, book.since(0))
            mark = len(book.lines)
            other = reader.read(alt, tries)
            other_logs = _logged(alt, book.since(mark))
        for key, value in mine.items():
            assert other[key] == value, f"{key} tells {reader.seat} {secret}"
        assert other_logs == mine_logs, (
            f"the logs tell {reader.seat} {secret}: "
            f"{sorted(set(mine_logs) ^ set(other_logs))}"
        )


def _logged(table: Table, lines: list[str]) -> list[str]:
    return [table_unnamed(table, line) for line in lines if "Slow move:" not in line]
