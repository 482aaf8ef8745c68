"""The user model, custom from the first migration so it can grow freely."""

import unicodedata
from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.core.exceptions import ValidationError
from django.db import models

USERNAME_TAKEN_MESSAGE = "A user with that username already exists."
#: Names in this namespace (in any case) are the house bots': only an account
#: with ``is_bot`` may hold one (sign-up, admin, createsuperuser, the manager).
BOT_PREFIX = "bot-"
BOT_NAME_RESERVED_MESSAGE = f"Usernames starting with {BOT_PREFIX!r} are reserved."


def username_fold(username: str) -> str:
    """The form two usernames share when they differ only in case.

    NFKC then Unicode case folding, so "Émile" and "émile" (or "STRASSE" and
    "straße") fold alike on every database; SQLite's LOWER() and LIKE fold
    ASCII letters only.
    """
    return unicodedata.normalize("NFKC", username).casefold()


def username_reserved(username: str) -> bool:
    """Whether ``username`` is in the house bots' ``bot-`` namespace, in any case."""
    return username_fold(username).startswith(BOT_PREFIX)


MIXED_SCRIPTS_MESSAGE = (
    "A username may not mix letters of different alphabets (such as Latin and "
    "Cyrillic): such names can look like someone else's."
)
# Scripts that are written together (Unicode TR39's "highly restrictive"
# level): a Japanese, Chinese or Korean name may hold Latin letters too.
_SCRIPTS_WRITTEN_TOGETHER = (
    frozenset({"LATIN", "CJK", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "CJK", "BOPOMOFO"}),
    frozenset({"LATIN", "CJK", "HANGUL"}),
)


def _script(letter: str) -> str:
    """A letter's script, from its Unicode name ("CYRILLIC SMALL LETTER O")."""
    name = unicodedata.name(letter, "")
    if name.startswith(("HALFWIDTH KATAKANA", "KATAKANA-HIRAGANA")):
        return "KATAKANA"
    return name.split(" ", 1)[0] or "UNKNOWN"


def username_mixes_scripts(username: str) -> bool:
    """Whether ``username``'s letters come from alphabets not written together.

    "bоt-strong" with a Cyrillic "о", or "аdmin" with a Cyrillic "а", reads
    as the house bot's or the staff's name; a name in one script (or Latin
    with Chinese, Japanese or Korean) is fine. Digits and ``@.+-_`` belong to
    every script. The name is read as it is stored (NFKC).
    """
    normalized = unicodedata.normalize("NFKC", username)
    scripts = {
        _script(char) for char in normalized if unicodedata.category(char)[0] == "L"
    }
    if len(scripts) <= 1:
        return False
    return not any(scripts <= together for together in _SCRIPTS_WRITTEN_TOGETHER)


class BotLevel(models.TextChoices):
    """How strongly a bot account plays (the policy it runs)."""

    RANDOM = "random", "Random"
    BASIC = "basic", "Basic"
    STRONG = "strong", "Strong"


class UserManager(DjangoUserManager["User"]):
    """Django's user manager, finding an account by name whatever its case.

    ``get_by_natural_key`` is what Django and DRF call to find an account by
    name: ``createsuperuser`` (to refuse a name already taken),
    ``drf_create_token``, ``loaddata``'s natural keys, the model backend. Made
    case-blind here, every one of them agrees with the site
    (``accounts.selectors.user_find`` is this lookup).
    """

    def _create_user_object(
        self, username: str, email: str | None, password: str | None, **extra: Any
    ) -> "User":
        """Refuse a person's account in the ``bot-`` namespace (``ValidationError``).

        ``create_user`` and ``create_superuser`` (so ``manage.py
        createsuperuser`` too) come through here; a bot account may hold one.
        """
        if not extra.get("is_bot") and username_reserved(username or ""):
            raise ValidationError({"username": BOT_NAME_RESERVED_MESSAGE})
        create = super()._create_user_object  # type: ignore[misc]
        return create(username, email, password, **extra)

    def get_by_natural_key(self, username: str | None) -> "User":
        """The account ``username`` names, in any case; else ``DoesNotExist``.

        Two accounts that differ only in case can still exist from before
        names were unique that way (migration 0002 kept both, the later one's
        folded name marked ``#<id>``). Then the one spelled exactly as asked
        wins, and a spelling that is neither finds the older one (the one
        whose folded name is unmarked).
        """
        # No name holds a NUL (PostgreSQL refuses one in a query).
        if not isinstance(username, str) or "\x00" in username:
            raise self.model.DoesNotExist(f"No user named {username!r}.")
        matches = list(
            self.filter(
                models.Q(username=username)
                | models.Q(username_folded=username_fold(username))
            )[:2]
        )
        for user in matches:
            if user.username == username:
                return user
        if not matches:
            raise self.model.DoesNotExist(f"No user named {username!r}.")
        return matches[0]


class User(AbstractUser):
    """A player: a person, or a bot seated by the server.

    Bot accounts have ``is_bot`` set, a ``bot_level`` naming their policy and an
    unusable password: nobody logs in as a bot, the server plays for it.
    """

    is_bot = models.BooleanField(
        default=False, help_text="Played by the server, not by a person."
    )
    # NULL, not "": a person has no level at all, which the constraint checks.
    bot_level = models.CharField(  # noqa: DJ001
        max_length=16,
        choices=BotLevel.choices,
        null=True,
        blank=True,
        help_text="The policy a bot plays with; empty for people.",
    )

    # Kept by save(): the database itself refuses two names that differ only
    # in case, whichever way the account is made (API, admin, shell).
    username_folded = models.CharField(
        # Folding may lengthen a name ("ß" → "ss"): room for three times 150.
        max_length=450,
        unique=True,
        editable=False,
        help_text="The username case-folded (username_fold), unique.",
    )

    objects: ClassVar[UserManager] = UserManager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(is_bot=True) | models.Q(bot_level__isnull=True),
                name="accounts_user_bot_level_only_for_bots",
            ),
        ]

    def __str__(self) -> str:
        return self.username

    def clean(self) -> None:
        """Also refuse a name another account has in another case, a
        person's name in the house bots' ``bot-`` namespace, and a name
        mixing alphabets (``username_mixes_scripts``) (forms, admin).

        An account that already holds a ``bot-`` or mixed name (made before
        the rule) keeps it: only a new name, or a name changed, is checked.
        """
        super().clean()
        if not self.username:  # the form already refused it
            return
        folded = username_fold(self.username)
        taken = User.objects.filter(username_folded=folded).exclude(pk=self.pk)
        if taken.exists():
            raise ValidationError({"username": USERNAME_TAKEN_MESSAGE})
        new_name = (
            self.pk is None
            or not User.objects.filter(pk=self.pk, username=self.username).exists()
        )
        if new_name and not self.is_bot and username_reserved(self.username):
            raise ValidationError({"username": BOT_NAME_RESERVED_MESSAGE})
        if new_name and username_mixes_scripts(self.username):
            raise ValidationError({"username": MIXED_SCRIPTS_MESSAGE})

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_folded = username_fold(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_folded"}
        super().save(*args, **kwargs)
