"""The organisers' admin: set a tournament up, then run it with actions.

Actions (on the tournament list, for staff with the change permission; the
export needs only the view permission): open registration, seat next round
(with a confirmation page showing the seating first), start round, finish
round, end the tournament early, recompute standings, export standings (CSV). A refused action shows
the reason as an error message and writes nothing (``tournaments.services``
refuse before writing, inside one transaction).

Hidden information: the pages show a round's tables by id, status, seats and
outcome (None until the match ends) with a link to the table page while it is
in play (the spectator view) and to the public replay page once it has ended;
never a table's state, seed or events. Lookups in the URL are limited to the
list filters, so no query string can filter tournaments by a table's seed.
"""

from __future__ import annotations

import csv
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers, widgets
from django.contrib.admin.actions import delete_selected
from django.core import validators
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Count, Q, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import get_text_list

from accounts.models import User
from games.errors import TableError
from games.models import TableStatus
from tournaments import selectors, services
from tournaments.models import (
    ENTRY_FIELDS,
    FIELD_PHRASES,
    MAX_SWISS_ROUNDS,
    PLACES_MAX_MESSAGE,
    ROUND_FIELDS,
    SETUP_FIELDS,
    STATUS_PHRASES,
    Entry,
    RoundStatus,
    Tournament,
    TournamentFormat,
    TournamentStatus,
    frozen_fields,
)
from tournaments.services import registration
from tournaments.services.setup import layout_get
from tournaments.services.standings import standings_rows

OPEN_FOR_ENTRIES = (TournamentStatus.DRAFT, TournamentStatus.REGISTRATION)


class EntryForm(forms.ModelForm):  # type: ignore[type-arg]
    """One *Entries* row. A new row chooses among the active people; a saved
    row's player is fixed, its only choice (to enter someone else, delete
    the row while entries are open and add one).

    Fixed, because each saved row listed every account: an event of 60
    players on a site of 5,000 sent 300,000 options in one page. And its
    own player, whatever the account's state: an account deactivated
    mid-event (``is_active`` off) was missing from its row's choices, the
    select rendered blank, and every save of the page was refused ("This
    field is required.") so that nobody, not even that player, could be
    withdrawn.
    """

    class Meta:
        model = Entry
        fields = ["player", "team", "withdrawn"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields.get("player")
        own = self.instance.player_id if self.instance.pk is not None else None
        if isinstance(field, forms.ModelChoiceField) and own is not None:
            field.queryset = User.objects.filter(pk=own)
            field.disabled = True


class EntryFormSet(BaseInlineFormSet):  # type: ignore[type-arg]
    """Entries change freely until the first round; after it, only withdrawals;
    once the tournament has finished, nothing.

    A row that registers someone (a new row, a changed team, or an
    unticked *withdrawn*) follows the API's registration rules, from the same
    code (``tournaments.services.registration``): a team in a team event and
    none otherwise, at most two active players per team, one entry per
    player. It gets the seed rating the API would store.
    """

    def clean(self) -> None:
        self._open = self._status() in OPEN_FOR_ENTRIES
        if not self._open:
            self._stale_edits_check()
            self._started_check()
        self._rules_check()
        super().clean()

    def _status(self) -> str:
        """The tournament's status, read under its row lock when saving."""
        tournament = self.instance
        if tournament.pk is None:
            return str(tournament.status)
        if transaction.get_connection().in_atomic_block:
            # The admin saves in one transaction: lock the row as the API does,
            # so no registration or seating races this one.
            return str(registration.tournament_lock(tournament.pk).status)
        return str(tournament.status)

    def _started_check(self) -> None:
        tournament = self.instance
        finished = self._status() == TournamentStatus.FINISHED
        for form in self.forms:
            if not form.has_changed():
                continue
            if finished:
                # The standings are the record of a played event.
                raise forms.ValidationError(
                    f"{tournament.name!r} has finished: its entries can no longer "
                    "change."
                )
            if form.instance.pk is None:
                raise forms.ValidationError(
                    f"{tournament.name!r} has started: players can no longer be "
                    "registered."
                )
            if set(form.changed_data) - {"withdrawn"} or self._deleted(form):
                raise forms.ValidationError(
                    f"{tournament.name!r} has started: entries can only be withdrawn."
                )
            if self._joins_late(form):
                raise forms.ValidationError(
                    f"{tournament.name!r} has started: {form.instance.player} "
                    "withdrew before round 1 and cannot join now."
                )

    def _stale_edits_check(self) -> None:
        """Refuse edits to row fields frozen since the page was loaded.

        ``EntryInline`` leaves the team out of the rows once round 1 is seated
        (and *withdrawn* once the tournament has finished), also on the save:
        a page loaded before posted its edits to them, and they were dropped
        unsaid while the rest saved. A browser posts no unticked box: the
        page showed *withdrawn* editable when any row posted it, or when it
        posted the rows' marker (``WITHDRAWN_SHOWN``): unticking the only
        ticked box of the page posts no box at all, and was dropped unsaid.
        """
        status = self._status()
        frozen = ENTRY_FROZEN_FIELDS.get(TournamentStatus(status), ())
        box = forms.CheckboxInput()
        shown = {
            name
            for name in frozen
            for form in self.forms
            if form.add_prefix(name) in self.data
        }
        if "withdrawn" in frozen and self.add_prefix(WITHDRAWN_SHOWN) in self.data:
            shown.add("withdrawn")
        changed = []
        for form in self.forms:
            entry = form.instance
            if entry.pk is None:
                continue
            for name in sorted(shown - set(form.fields)):
                key = form.add_prefix(name)
                if name == "withdrawn":
                    posted = box.value_from_datadict(self.data, self.files, key)
                    if posted != entry.withdrawn:
                        changed.append(f"the withdrawal of {entry.player}")
                elif key in self.data and str(self.data[key]).strip() != entry.team:
                    changed.append(f"the team of {entry.player}")
        if changed:
            listed = get_text_list(changed, "and")
            raise forms.ValidationError(
                "This page was loaded before the tournament was "
                f"{STATUS_PHRASES[TournamentStatus(status)]}: {listed} can no "
                "longer change, so nothing was saved. Reload the page to see the "
                "entries as they are now."
            )

    def _joins_late(self, form: Any) -> bool:
        """Whether unticking *withdrawn* on ``form`` would bring in a player
        who has never been seated, once round 1 has started: a late entry,
        which is refused like a new row. (While round 1 is only seated they
        may come back: the round is then seated again, with them.)"""
        entry = form.instance
        if form.cleaned_data.get("withdrawn", True) or "withdrawn" not in (
            form.changed_data
        ):
            return False
        if entry.seats.exists() or entry.byes.exists():
            return False
        return self.instance.round_set.exclude(status=RoundStatus.SEATED).exists()

    def _deleted(self, form: Any) -> bool:
        """Whether ``form``'s row is ticked for deletion."""
        data = getattr(form, "cleaned_data", None) or {}
        return bool(self.can_delete and data.get("DELETE"))

    def _kept(self, form: Any) -> bool:
        """A row that will exist after saving, with a player."""
        if form.instance.pk is None and not form.has_changed():
            return False
        if self._deleted(form):
            return False
        return bool(getattr(form, "cleaned_data", None)) and bool(
            form.cleaned_data.get("player")
        )

    def _was_active(self, form: Any) -> bool:
        """Whether ``form``'s entry was in the event before this save (it
        holds a place already)."""
        return form.instance.pk is not None and not form.initial.get("withdrawn")

    def _registers(self, form: Any) -> bool:
        """Whether saving ``form`` registers its player (the API's rules apply)."""
        if not form.has_changed():
            return False
        if form.instance.pk is None:
            return True
        changed = set(form.changed_data)
        return bool(changed & {"player", "team"}) or (
            "withdrawn" in changed and not form.cleaned_data.get("withdrawn")
        )

    def _rules_check(self) -> None:
        tournament = self.instance
        rows = [f for f in self.forms if self._kept(f)]
        # (player id, team, active) of every entry there will be: the rows,
        # and any entry not on the page (registered through the API meanwhile).
        shown = {f.instance.pk for f in self.forms if f.instance.pk is not None}
        others: list[tuple[int, str, bool]] = []
        if tournament.pk is not None:
            others = [
                (e.player_id, e.team, not e.withdrawn)
                for e in tournament.entries.exclude(pk__in=shown)
            ]
        players = Counter(p for p, _, _ in others)
        players.update(f.cleaned_data["player"].pk for f in rows)
        # Team places: taken first by the rows that do not register anyone.
        teams: Counter[str] = Counter(t for _, t, active in others if active and t)
        # The tournament's places: taken first by the entries active before
        # this save that stay so (a row withdrawn or deleted frees its place).
        taken = sum(1 for _, _, active in others if active)
        registering = []
        for form in rows:
            team = form.cleaned_data.get("team", form.instance.team) or ""
            active = not form.cleaned_data.get("withdrawn", form.instance.withdrawn)
            if active and self._was_active(form):
                taken += 1
            if not self._registers(form):
                if active and team:
                    teams[team] += 1
                continue
            registering.append((form, team, active))
        for form, raw_team, active in registering:
            player = form.cleaned_data["player"]
            if active and not player.is_active:
                # Kept on their own row (EntryForm), but not entered again.
                form.add_error(
                    "player",
                    f"{player}'s account is deactivated: they cannot play, so "
                    "they cannot be entered.",
                )
                continue
            if players[player.pk] > 1:
                form.add_error(
                    "player",
                    f"{player} already has an entry in {tournament.name!r}: a player "
                    "enters once (to bring back a withdrawn player, untick "
                    "withdrawn on their entry).",
                )
                continue
            field = "team" if "team" in form.fields else None
            try:
                team = registration.entry_team_clean(
                    tournament=tournament, team=raw_team
                )
                if active:
                    registration.entry_team_room_check(team=team, mates=teams[team])
            except TableError as exc:
                form.add_error(field, f"{player}: {exc.message}")
                continue
            if active and not self._was_active(form):
                try:
                    registration.entry_places_check(tournament=tournament, taken=taken)
                except TableError as exc:
                    form.add_error("player", f"{player}: {exc.message}")
                    continue
                taken += 1
            if field is not None:
                form.cleaned_data["team"] = team
            form.instance.team = team
            if active and team:
                teams[team] += 1

    def _seed(self, form: Any) -> None:
        """The seed rating the API stores, for a row that registers someone."""
        tournament = self.instance
        if getattr(self, "_open", False) and self._registers(form):
            form.instance.seed_rating = registration.entry_seed_rating(
                tournament=tournament, player=form.instance.player
            )

    def save_new(self, form: Any, commit: bool = True) -> Any:
        self._seed(form)
        return super().save_new(form, commit)

    def save_existing(self, form: Any, obj: Any, commit: bool = True) -> Any:
        self._seed(form)
        return super().save_existing(form, obj, commit)


#: The row fields ``EntryInline`` shows read-only, by tournament status (the
#: player of a saved row is fixed whatever the status, see ``EntryForm``).
ENTRY_FROZEN_FIELDS: dict[TournamentStatus, tuple[str, ...]] = {
    TournamentStatus.RUNNING: ("team",),
    TournamentStatus.FINISHED: ("team", "withdrawn"),
}


#: A hidden input the *Entries* rows post (``entries-withdrawn_shown``) while
#: their *withdrawn* boxes are editable: a browser posts no unticked box, so
#: without it a page whose every box was unticked looked like one that showed
#: none, and unticking a withdrawal on it after the finish was dropped unsaid.
WITHDRAWN_SHOWN = "withdrawn_shown"


#: What the *Entries* rows say once players can no longer be entered.
ENTRIES_CLOSED_NOTES = {
    TournamentStatus.RUNNING: (
        "Round 1 has been seated: no more players can be entered, and a "
        "player's team is fixed. Tick withdrawn to withdraw a player (a bot "
        "takes their seat in play); untick it to bring them back."
    ),
    TournamentStatus.FINISHED: (
        "The tournament has finished: its entries are the record of the event "
        "and can no longer change."
    ),
}


def entries_note(tournament: Tournament) -> str:
    """The note above the *Entries* rows: why they are closed, or how many
    of a limited tournament's places are taken."""
    closed = ENTRIES_CLOSED_NOTES.get(TournamentStatus(tournament.status))
    if closed is not None:
        return closed
    places = tournament.max_entries
    if places is None:
        return ""
    taken = tournament.places_taken()
    return f"{taken} of {places} places are taken." + (
        " The tournament is full: raise its places (or withdraw a player) to "
        "enter another."
        if taken >= places
        else ""
    )


class EntryInline(admin.TabularInline):
    """The *Entries* rows. Once round 1 is seated the page offers no row to
    add (the save would refuse it) and the team is read-only: only
    *withdrawn* can change. Once the tournament has finished, nothing can:
    every field is read-only. A note above the rows says why
    (``ENTRIES_CLOSED_NOTES``)."""

    model = Entry
    form = EntryForm
    formset = EntryFormSet
    template = "admin/tournaments/tournament/entries_inline.html"
    extra = 0
    fields = ("player", "team", "seed_rating", "number", "withdrawn")
    readonly_fields = ("seed_rating", "number")
    #: Why the rows can no longer be added to (or changed); set per page.
    note = ""
    #: The marker's name when the page shows *withdrawn* editable (see
    #: ``WITHDRAWN_SHOWN``), else empty; set per page.
    withdrawn_shown = ""

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        self.note = entries_note(obj) if obj is not None else ""
        editable = obj is None or "withdrawn" not in ENTRY_FROZEN_FIELDS.get(
            TournamentStatus(obj.status), ()
        )
        self.withdrawn_shown = WITHDRAWN_SHOWN if editable else ""
        return super().get_formset(request, obj, **kwargs)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """No add row once entries are closed. A save (POST) still takes a
        new row, from a page loaded before round 1 was seated, so that the
        formset refuses it with its reason rather than dropping it unsaid."""
        if (
            obj is not None
            and obj.status not in OPEN_FOR_ENTRIES
            and request.method != "POST"
        ):
            return False
        return super().has_add_permission(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """The team once round 1 is seated; every field once it has finished.

        Read-only on the save too: a page loaded before that cannot change
        them (the row keeps its stored values), as the formset would refuse.
        """
        readonly = tuple(super().get_readonly_fields(request, obj))
        if obj is None or obj.status in OPEN_FOR_ENTRIES:
            return readonly
        frozen = ENTRY_FROZEN_FIELDS[TournamentStatus(obj.status)]
        if obj.status == TournamentStatus.FINISHED:
            return (*readonly, "player", *frozen)
        return (*readonly, *frozen)

    def formfield_for_foreignkey(
        self, db_field: Any, request: HttpRequest, **kwargs: Any
    ) -> Any:
        if db_field.name == "player":
            kwargs["queryset"] = User.objects.filter(
                is_bot=False, is_active=True
            ).order_by("username")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_dbfield(
        self, db_field: Any, request: HttpRequest, **kwargs: Any
    ) -> Any:
        """The player's select without the add, change and delete links to the
        account: beside an entry, the red ✕ read as "remove this entry" but
        deleted the person's account (for an organiser with the users' rights)."""
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        widget = getattr(formfield, "widget", None)
        if db_field.name == "player" and isinstance(
            widget, widgets.RelatedFieldWidgetWrapper
        ):
            widget.can_add_related = False
            widget.can_change_related = False
            widget.can_delete_related = False
        return formfield

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.status not in OPEN_FOR_ENTRIES:
            return False
        return super().has_delete_permission(request, obj)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and not obj.team_event:
            return [f for f in self.fields if f != "team"]
        return self.fields


def delete_without_rounds(
    modeladmin: TournamentAdmin, request: HttpRequest, queryset: QuerySet[Tournament]
) -> Any:
    """Django's "Delete selected", refused for a tournament with a round.

    The delete permission asks about one tournament on its own page only: the
    list's bulk action deleted a tournament whose round was seated, or played,
    with its entries and results. Its tables and results are the record; end
    it instead ("End tournament early").
    """
    played = sorted(
        queryset.filter(round_set__isnull=False)
        .distinct()
        .values_list("name", flat=True)
    )
    if played:
        modeladmin.message_user(
            request,
            "Not deleted: a tournament with a round seated or played is part of "
            f"the record ({', '.join(played)}). End it early instead.",
            messages.ERROR,
        )
        return None
    return delete_selected(modeladmin, request, queryset)


TABLE_SIZE_MIN_MESSAGE = "A table seats at least 2 players."


def _form_field(name: str) -> forms.Field:
    """The form field the change page shows for the model field ``name``."""
    field = Tournament._meta.get_field(name)
    assert isinstance(field, models.Field)
    formfield = field.formfield()
    assert formfield is not None
    return formfield


#: The rounds a round robin stores until seating round 1 sets its own count.
ROUNDS_DEFAULT = Tournament._meta.get_field("rounds").get_default()


#: The set-up fields frozen together (``frozen_fields``): the game settings
#: once registration opens, the rounds and places once round 1 is seated.
FROZEN_GROUPS = (SETUP_FIELDS, (*ROUND_FIELDS, *ENTRY_FIELDS))


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    """The tournament's set-up form: one clear message per field.

    A table size the form refuses itself (not a number, below 2) never
    reaches the model, so the rules' check would see no value and add "The
    number of players must be a whole number" beside the form's own message:
    such a field keeps the form's message only. A value the model refuses
    twice (beyond the column's range, then by the rules: "Alkort is played by
    2 to 4 players, not 70000") keeps the last, ``Tournament.clean``'s, which
    knows the game and the format.
    """

    class Meta:
        model = Tournament
        # The admin passes the fields it shows (TournamentAdmin.get_fields).
        fields = ["name", *SETUP_FIELDS, "rounds", "max_entries"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rounds = self.fields.get("rounds")
        if rounds is not None:
            rounds.required = False  # a round robin sets its own (_rounds_fill)
        places = self.fields.get("max_entries")
        if isinstance(places, forms.IntegerField):
            # Past the column's range the form's own check answered first,
            # "Ensure this value is less than or equal to 2147483647."
            places.error_messages["max_value"] = PLACES_MAX_MESSAGE
        field = self.fields.get("table_size")
        if isinstance(field, forms.IntegerField):
            field.min_value = 2
            field.widget.attrs["min"] = 2
            field.validators = [
                *(
                    v
                    for v in field.validators
                    if not isinstance(v, validators.MinValueValidator)
                ),
                validators.MinValueValidator(2, message=TABLE_SIZE_MIN_MESSAGE),
            ]

    def clean(self) -> dict[str, Any] | None:
        cleaned: dict[str, Any] | None = super().clean()
        self._rounds_fill()
        self._stale_edits_check()
        return cleaned

    def _rounds_fill(self) -> None:
        """Empty rounds: a round robin keeps its stored count (seating round
        1 sets its own), a Swiss is asked for them.

        The field's help says a round robin sets its own count, yet leaving
        it empty was refused, "This field is required."
        """
        if "rounds" not in self.fields or "rounds" in self.errors:
            return
        if self.cleaned_data.get("rounds") is not None:
            return
        if self.cleaned_data.get("format", self.instance.format) == (
            TournamentFormat.ROUND_ROBIN
        ):
            self.cleaned_data["rounds"] = self.instance.rounds or ROUNDS_DEFAULT
        else:
            self.add_error(
                "rounds",
                f"Give a Swiss's number of rounds, from 1 to {MAX_SWISS_ROUNDS}.",
            )

    def _stale_edits_check(self) -> None:
        """Refuse edits to fields frozen since the page was loaded.

        The admin leaves a frozen field out of the form (it is shown
        read-only), also on the save: a page loaded before another organiser
        opened registration, or seated round 1, posted its edits to them and
        they were dropped unsaid while the rest saved. A frozen field the
        page posted (it was editable then) and that differs from the stored
        value refuses the whole save, naming it. Browsers post no unticked
        checkbox: one counts as shown when a field of its group that is not
        a checkbox was posted.
        """
        tournament = self.instance
        if tournament.pk is None:
            return
        changed = []
        for group in FROZEN_GROUPS:
            names = [
                n
                for n in group
                if n in frozen_fields(tournament.status) and n not in self.fields
            ]
            fields = {n: _form_field(n) for n in names}
            shown = any(
                not isinstance(f.widget, forms.CheckboxInput)
                and not f.widget.value_omitted_from_data(
                    self.data, self.files, self.add_prefix(n)
                )
                for n, f in fields.items()
            )
            if not shown:
                continue
            for name, field in fields.items():
                posted = field.widget.value_from_datadict(
                    self.data, self.files, self.add_prefix(name)
                )
                if field.has_changed(getattr(tournament, name), posted):
                    changed.append(FIELD_PHRASES.get(name, name.replace("_", " ")))
        if changed:
            listed = get_text_list(changed, "and")
            status = STATUS_PHRASES[TournamentStatus(tournament.status)]
            self.add_error(
                None,
                f"This page was loaded before the tournament was {status}: its "
                f"{listed} can no longer change, so nothing was saved. Reload the "
                "page to see the tournament as it is now.",
            )

    def _update_errors(self, errors: ValidationError) -> None:
        """The model's errors, one a field, none on a field the form refused."""
        if hasattr(errors, "error_dict"):
            kept = {
                name: messages[-1:]
                for name, messages in errors.error_dict.items()
                if name not in self.errors
            }
            if not kept:
                return
            errors = ValidationError(kept)
        super()._update_errors(errors)  # type: ignore[misc]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = (
        "name",
        "game",
        "format",
        "table_size",
        "status",
        "rounds_played",
        "entries_count",
        "created_at",
    )
    list_filter = ("status", "game", "format")
    search_fields = ("name",)
    inlines = [EntryInline]
    actions = [
        "open_registration",
        "seat_next_round",
        "start_round",
        "finish_round",
        "finish_tournament",
        "recompute_standings",
        "export_standings",
    ]
    readonly_base = (
        "status",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
        "rounds_overview",
        "standings_table",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                entries_total=Count(
                    "entries", filter=Q(entries__withdrawn=False), distinct=True
                ),
                rounds_total=Count("round_set", distinct=True),
            )
        )

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = ["name", *SETUP_FIELDS, "rounds", "max_entries", "status"]
        if obj is not None:
            fields += [
                "created_by",
                "started_at",
                "finished_at",
                "rounds_overview",
                "standings_table",
            ]
        return fields

    def get_readonly_fields(
        self, request: HttpRequest, obj: Any = None
    ) -> tuple[str, ...]:
        if obj is None:
            return self.readonly_base
        # Game settings from registration on; the rounds too once it runs.
        return (*self.readonly_base, *frozen_fields(obj.status))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.round_set.exists():
            return False  # its tables and results are part of the record
        return super().has_delete_permission(request, obj)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions: dict[str, Any] = super().get_actions(request)
        if "delete_selected" in actions:
            _, name, description = actions["delete_selected"]
            actions["delete_selected"] = (delete_without_rounds, name, description)
        return actions

    def lookup_allowed(
        self, lookup: str, value: str, request: HttpRequest | None = None
    ) -> bool:  # type: ignore[override]
        # Only the list filters: no URL may filter by a related table's fields.
        return lookup in {
            "status",
            "status__exact",
            "game",
            "game__exact",
            "format",
            "format__exact",
        }

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> Tournament | None:
        """The tournament; for a POST (a save, a deletion), read under its row
        lock, taken first.

        The admin saves and deletes in one transaction. Without the lock the
        page would read the tournament, then a round seated meanwhile by
        another organiser would commit, and the save would write the
        tournament back as it was read: open for registration again, with
        its round 1 seated. Locked, the save waits for the seating and
        judges the tournament as it is now (its frozen fields, its entries:
        the inline's rows are read after this, under the same lock).
        """
        if (
            request.method == "POST"
            and from_field is None
            and transaction.get_connection().in_atomic_block
        ):
            try:
                pk = Tournament._meta.pk.to_python(object_id)  # type: ignore[union-attr]
            except ValidationError:
                pk = None  # not an id: the admin answers as for a missing one
            if pk is not None:
                # The annotated queryset (counts) cannot take FOR UPDATE: lock
                # the row alone, then read it as the page shows it.
                list(
                    Tournament.objects.select_for_update()
                    .filter(pk=pk)
                    .values_list("pk", flat=True)
                )
        return super().get_object(request, object_id, from_field)

    def save_model(
        self, request: HttpRequest, obj: Tournament, form: Any, change: bool
    ) -> None:
        if obj.created_by_id is None:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)

    def save_formset(
        self, request: HttpRequest, form: Any, formset: Any, change: bool
    ) -> None:
        super().save_formset(request, form, formset, change)
        if not isinstance(formset, EntryFormSet):
            return
        # A player withdrawn while their round is in play leaves their table:
        # a bot plays the seat to the end, and the round can finish.
        for entry_form in formset.forms:
            entry = entry_form.instance
            if (
                entry.pk is None
                or not entry.withdrawn
                or "withdrawn" not in entry_form.changed_data
            ):
                continue
            for table_id in services.entry_tables_leave(entry=entry):
                # Not the username first: the admin capitalises a message's
                # first letter, which would respell it ("ada" as "Ada").
                self.message_user(
                    request,
                    f"Table {table_id}: {entry.player} is withdrawn from its match "
                    "in play; a basic bot plays their seat to the end (they keep "
                    "its result).",
                    messages.INFO,
                )

    def response_action(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> HttpResponse | None:
        """Run the chosen action; first say which selected tournaments are gone.

        A list loaded before another organiser deleted a tournament posts its
        id: Django's action then ran over nothing and said nothing (the
        seating, "select exactly one"), so the page read as if it had been
        done. All gone: nothing runs and the message says why; some gone: the
        action goes on for the rest, after a warning.
        """
        selected = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
        if not selected or request.POST.get("select_across", "0") != "0":
            return super().response_action(request, queryset)
        try:
            wanted = {int(pk) for pk in selected}
        except ValueError:
            return super().response_action(request, queryset)
        present = set(
            Tournament.objects.filter(pk__in=wanted).values_list("pk", flat=True)
        )
        gone = len(wanted - present)
        if gone and not present:
            self.message_user(
                request,
                (
                    "The tournament you selected no longer exists"
                    if gone == 1
                    else "The tournaments you selected no longer exist"
                )
                + " (deleted since the list was loaded): nothing was done. The "
                "list now shows the tournaments as they are.",
                messages.ERROR,
            )
            return None
        if gone:
            self.message_user(
                request,
                f"{gone} of the tournaments you selected no longer "
                f"{'exists' if gone == 1 else 'exist'} (deleted since the list was "
                f"loaded): nothing was done to {'it' if gone == 1 else 'them'}.",
                messages.WARNING,
            )
        return super().response_action(request, queryset)

    @admin.display(description="entries")
    def entries_count(self, obj: Tournament) -> int | str:
        entered: int = getattr(obj, "entries_total", 0)
        if obj.max_entries is None:
            return entered
        return f"{entered} of {obj.max_entries}"

    @admin.display(description="rounds")
    def rounds_played(self, obj: Tournament) -> str:
        planned = obj.round_count(getattr(obj, "entries_total", 0))
        return f"{getattr(obj, 'rounds_total', 0)} / {planned}"

    # --- read-only panels ---------------------------------------------------

    @admin.display(description="rounds and tables")
    def rounds_overview(self, obj: Tournament) -> str:
        rounds = selectors.rounds_get(tournament=obj)
        if not rounds:
            return "No round seated yet."
        lead = layout_get(tournament=obj).lead
        parts = []
        for rnd in rounds:
            rows = format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                (
                    (
                        table.number,
                        _seats_html(table, lead),
                        table.table.get_status_display()
                        if table.table
                        else "not started",
                        _table_link(table),
                    )
                    for table in rnd.tables.all()
                ),
            )
            byes = ", ".join(str(b.entry.player) for b in rnd.byes.all()) or "none"
            state = rnd.get_status_display().lower()
            if rnd.status == RoundStatus.RUNNING:
                # How far the round is, without reading every table's status.
                tables = rnd.tables.all()
                ended = sum(
                    1
                    for t in tables
                    if t.table is not None and t.table.status == TableStatus.FINISHED
                )
                state += f": {ended} of {len(tables)} tables ended"
            parts.append(
                format_html(
                    "<h3>Round {} ({})</h3><table><thead><tr><th>table</th><th>seats"
                    " (▶ acts first)</th><th>match</th><th>watch or replay</th></tr></thead>"
                    "<tbody>{}</tbody></table><p>Byes: {}</p>",
                    rnd.number,
                    state,
                    rows,
                    byes,
                )
            )
        return format_html_join("", "{}", ((p,) for p in parts))

    @admin.display(description="standings")
    def standings_table(self, obj: Tournament) -> str:
        rows = selectors.standings_get(tournament=obj)
        if not rows:
            return "No standings yet (they appear once a round has started)."
        # The team column in a team event only (elsewhere it is always empty).
        teams = obj.team_event
        body = format_html_join(
            "",
            "<tr>" + "<td>{}</td>" * (9 if teams else 8) + "</tr>",
            (
                (
                    s.rank,
                    s.entry.player,
                    *((s.entry.team,) if teams else ()),
                    score_text(s.points),
                    score_text(s.buchholz),
                    score_text(s.game_score),
                    s.played,
                    s.byes,
                    "yes" if s.entry.withdrawn else "",
                )
                for s in rows
            ),
        )
        return format_html(
            "<table><thead><tr><th>rank</th><th>player</th>{}<th>points</th>"
            "<th>Buchholz</th><th>game score</th><th>played</th><th>byes</th>"
            "<th>withdrawn</th></tr>"
            "</thead><tbody>{}</tbody></table>",
            mark_safe("<th>team</th>") if teams else "",  # noqa: S308
            body,
        )

    # --- actions ------------------------------------------------------------

    def _run(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tournament],
        call: Any,
    ) -> None:
        """Apply ``call`` to each selected tournament; report each outcome."""
        for tournament in queryset:
            try:
                message = call(tournament)
            except TableError as exc:
                self.message_user(
                    request, _about(tournament, exc.message), messages.ERROR
                )
            else:
                self.message_user(
                    request, f"{tournament.name}: {message}", messages.SUCCESS
                )

    @admin.action(description="Open registration", permissions=["change"])
    def open_registration(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        def call(t: Tournament) -> str:
            services.registration_open(tournament_id=t.pk)
            return "registration is open."

        self._run(request, queryset, call)

    @admin.action(
        description="Seat next round (shows the seating first)", permissions=["change"]
    )
    def seat_next_round(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> TemplateResponse | None:
        if queryset.count() != 1:
            self.message_user(
                request,
                "Seat one tournament at a time: select exactly one.",
                messages.ERROR,
            )
            return None
        tournament = queryset.get()
        if request.POST.get("confirm") == "yes":
            try:
                rnd = services.round_seat(
                    tournament_id=tournament.pk,
                    fingerprint=request.POST.get("fingerprint", ""),
                )
            except TableError as exc:
                self.message_user(
                    request, _about(tournament, exc.message), messages.ERROR
                )
                return None
            tables = rnd.tables.count()
            byes = rnd.byes.count()
            self.message_user(
                request,
                f"{tournament.name}: round {rnd.number} is seated at {tables} table"
                f"{'s' if tables != 1 else ''}"
                + (f", {byes} bye{'s' if byes != 1 else ''}" if byes else "")
                + ". Start the round to open its tables.",
                messages.SUCCESS,
            )
            return None
        try:
            proposal = services.round_plan(tournament=tournament)
        except TableError as exc:
            self.message_user(request, _about(tournament, exc.message), messages.ERROR)
            return None
        layout = layout_get(tournament=tournament)
        names = {pk: str(e.player) for pk, e in proposal.entries.items()}
        seated = [
            {
                "number": index,
                "seats": [
                    {
                        "seat": seat,
                        "name": names[entry]
                        if entry is not None
                        else f"bot ({tournament.get_bot_level_display().lower()})",
                        "lead": seat == layout.lead,
                    }
                    for seat, entry in enumerate(seats)
                ],
            }
            for index, seats in enumerate(proposal.plan.tables, start=1)
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": f"Seat round {proposal.number} of {tournament.name}",
            "tournament": tournament,
            "proposal": proposal,
            "tables": seated,
            "byes": [names[e] for e in proposal.plan.byes],
            "opts": self.model._meta,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(
            request, "admin/tournaments/seat_round_confirm.html", context
        )

    @admin.action(
        description="Start round (opens and deals its tables)", permissions=["change"]
    )
    def start_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        def call(t: Tournament) -> str:
            rnd = services.round_start(tournament_id=t.pk, user=request.user)  # type: ignore[arg-type]
            tables = rnd.tables.count()
            message = (
                f"round {rnd.number} has started at {tables} "
                f"table{'s' if tables != 1 else ''}."
            )
            # A bye needs no play: it stands for a deactivated account, which
            # the next seating refuses (so say it now, while there is time).
            idle = sorted(
                rnd.byes.filter(entry__player__is_active=False).values_list(
                    "entry__player__username", flat=True
                )
            )
            if idle and rnd.number < t.rounds:
                many = len(idle) > 1
                message += (
                    f" The bye{'s' if many else ''} of {', '.join(idle)} "
                    f"stand{'' if many else 's'}, but "
                    f"{'their accounts are' if many else 'their account is'} "
                    "deactivated: withdraw them or reactivate the "
                    f"account{'s' if many else ''} before seating round "
                    f"{rnd.number + 1}."
                )
            return message

        self._run(request, queryset, call)

    @admin.action(
        description="Finish round (all its tables must have ended)",
        permissions=["change"],
    )
    def finish_round(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        def call(t: Tournament) -> str:
            rnd = services.round_finish(tournament_id=t.pk)
            t.refresh_from_db()
            if t.status == TournamentStatus.FINISHED:
                return f"round {rnd.number} is finished, and so is the tournament."
            return f"round {rnd.number} is finished."

        self._run(request, queryset, call)

    @admin.action(
        description="End tournament early (between rounds)", permissions=["change"]
    )
    def finish_tournament(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        def call(t: Tournament) -> str:
            _, discarded = services.tournament_finish(tournament_id=t.pk)
            played = t.round_set.count()
            return (
                f"the tournament is finished after {played} of its {t.rounds} "
                f"round{'s' if t.rounds != 1 else ''}"
                + (
                    f"; round {discarded}, seated but not started, was discarded."
                    if discarded is not None
                    else "."
                )
            )

        self._run(request, queryset, call)

    @admin.action(description="Recompute standings", permissions=["change"])
    def recompute_standings(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        def call(t: Tournament) -> str:
            counted = services.standings_recompute(tournament_id=t.pk)
            return f"standings recomputed from {counted} finished table{'s' if counted != 1 else ''}."

        self._run(request, queryset, call)

    @admin.action(description="Export standings (CSV)", permissions=["view"])
    def export_standings(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> HttpResponse:
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="standings.csv"'
        writer = csv.writer(response)
        writer.writerow(STANDINGS_CSV_HEADER)
        for tournament in queryset.order_by("pk"):
            entries = {e.pk: e for e in tournament.entries.select_related("player")}
            for row in standings_rows(tournament=tournament):
                entry = entries[row.entry]
                writer.writerow(
                    csv_safe(cell)
                    for cell in [
                        tournament.pk,
                        tournament.name,
                        row.rank,
                        entry.number or "",
                        entry.player.username,
                        entry.team,
                        row.points,
                        row.buchholz,
                        row.game_score,
                        row.played,
                        row.wins,
                        row.byes,
                        "yes" if entry.withdrawn else "no",
                    ]
                )
        return response


#: Leading characters that make a spreadsheet read a cell as a formula.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def _about(tournament: Tournament, message: str) -> str:
    """``message`` as the admin shows it: led by the tournament's name.

    An action may run over several tournaments, so each line says which one it
    is about, unless the service's message already names it (``'Duels' has
    finished: nothing to seat.``), which would say it twice.
    """
    if repr(tournament.name) in message:
        return message
    return f"{tournament.name}: {message}"


def csv_safe(cell: Any) -> Any:
    """A text cell a spreadsheet will not run: a formula-like one gets a ``'``.

    Team names (and tournament names) are free text; numbers are left alone.
    """
    if isinstance(cell, str) and cell.startswith(FORMULA_PREFIXES):
        return "'" + cell
    return cell


STANDINGS_CSV_HEADER = [
    "tournament",
    "name",
    "rank",
    "number",
    "player",
    "team",
    "points",
    "buchholz",
    "game_score",
    "played",
    "wins",
    "byes",
    "withdrawn",
]


def _seats_html(table: Any, lead: int) -> str:
    """Seats in order, the lead marked; places once the match has ended."""
    match = table.table
    places: list[int] = []
    if match is not None and match.status == TableStatus.FINISHED and match.outcome:
        places = match.outcome["places"]
    return format_html_join(
        ", ",
        "{}{}: {}{}",
        (
            (
                "▶ " if s.seat == lead else "",
                s.seat,
                s.entry.player if s.entry else f"bot ({s.bot_level})",
                f" (place {places[s.seat]})" if places else "",
            )
            for s in table.seats.all()
        ),
    )


def _table_link(table: Any) -> str:
    """The table's replay once its match has ended; until then its live page
    (the spectator view): the replay page of a match in play only says that
    it can be replayed once it ends."""
    if table.table_id is None:
        return "—"
    if table.table.status == TableStatus.FINISHED:
        return format_html(
            '<a href="/tables/{}/replay/">replay table {}</a>',
            table.table_id,
            table.table_id,
        )
    return format_html(
        '<a href="/tables/{}/">watch table {}</a>', table.table_id, table.table_id
    )


def score_text(value: Any) -> str:
    """A score as the tournament's web page writes it: a whole number without
    decimals ("1", "5"), any other to one decimal ("2.5")."""
    number = Decimal(value)
    if number == number.to_integral_value():
        return str(int(number))
    return str(number.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
