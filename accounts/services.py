"""Writes on accounts: sign-up, credentials, tokens, the house bots, the demo admin."""

from django.contrib.auth import authenticate, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from rest_framework.authtoken.models import Token

from accounts.errors import LoginRefused
from accounts.models import (
    BOT_NAME_RESERVED_MESSAGE,
    BOT_PREFIX,
    MIXED_SCRIPTS_MESSAGE,
    USERNAME_TAKEN_MESSAGE,
    BotLevel,
    User,
    username_fold,
    username_mixes_scripts,
    username_reserved,
)
from accounts.receivers import credentials_revoked_on_commit
from accounts.selectors import user_find

DEMO_ADMIN_USERNAME = "admin"
# Published in README.md on purpose: only ever created with DEBUG on.
DEMO_ADMIN_PASSWORD = "cardroom-admin"


def bot_username(level: BotLevel) -> str:
    """The house bot's username for ``level``, e.g. ``bot-strong``."""
    return f"{BOT_PREFIX}{level.value}"


@transaction.atomic
def bot_accounts_ensure() -> list[tuple[User, bool]]:
    """Make sure one house bot per level exists; return ``(bot, created)`` pairs.

    New bots get an unusable password: nobody logs in as a bot. An existing
    account with a bot's name that is not a bot is an error, never converted.
    """
    results = []
    for level in BotLevel:
        name = bot_username(level)
        # By name in any case: a "BOT-BASIC" made in the admin holds the name.
        bot = user_find(username=name)
        created = bot is None
        if bot is None:
            bot = User(username=name, is_bot=True, bot_level=level.value)
            bot.set_unusable_password()
            try:
                with transaction.atomic():  # a savepoint: a racing run made it
                    bot.save(force_insert=True)
            except IntegrityError:
                bot, created = User.objects.get_by_natural_key(name), False
        if not bot.is_bot:
            raise ValueError(f"{bot.username!r} exists and is not a bot account.")
        results.append((bot, created))
    return results


def demo_admin_ensure(
    *, username: str = DEMO_ADMIN_USERNAME, password: str = DEMO_ADMIN_PASSWORD
) -> tuple[User, bool]:
    """Create the demo superuser unless ``username`` exists; return ``(user, created)``.

    An existing account is left as it is, its password included; the name is
    matched in any case, as everywhere ("Admin" is the demo admin's name).
    """
    existing = user_find(username=username)
    if existing is not None:
        return existing, False
    admin = User.objects.create_superuser(
        username=username, email=f"{username}@example.com", password=password
    )
    return admin, True


def demo_admin_lock(*, username: str = DEMO_ADMIN_USERNAME) -> User | None:
    """Take the published password away from ``username``, if it still has it.

    With DEBUG off the demo admin is never created, but a database first
    served with DEBUG on (``make run``, ``make up``) keeps the one it got, and
    serving that database to a network would let anyone in as a superuser.
    Its password becomes unusable (which also ends its sessions); an admin
    given a password of its own is left alone. Returns the account it locked.
    """
    admin = user_find(username=username)
    if admin is None or not admin.check_password(DEMO_ADMIN_PASSWORD):
        return None
    admin.set_unusable_password()
    admin.save(update_fields=["password"])
    return admin


# --- people: sign-up, credentials, tokens ------------------------------------

BOT_LOGIN_MESSAGE = "Bot accounts are played by the server and cannot log in."
BAD_CREDENTIALS_MESSAGE = "Unable to log in with the provided credentials."
WRONG_PASSWORD_MESSAGE = "Your current password is not right."


@transaction.atomic
def user_register(*, username: str, password: str) -> User:
    """Create a person's account after Django's username and password validators.

    Raises ``ValidationError`` keyed by field: a name with characters other
    than letters, digits and ``@.+-_`` (Django's username validator), a taken
    name (compared case-folded, so "Ada" and "ada", or "Émile" and "émile",
    cannot both exist; the database's unique ``username_folded`` holds it
    under races too), a name in the house bots' ``bot-`` namespace, a name
    mixing alphabets ("bоt-x" with a Cyrillic "о", ``username_mixes_scripts``),
    or a password the validators refuse.
    """
    username = User.normalize_username(username)
    try:
        User._meta.get_field("username").run_validators(username)
    except ValidationError as exc:
        raise ValidationError({"username": exc.messages}) from exc
    folded = username_fold(username)
    if username_reserved(username):
        raise ValidationError({"username": BOT_NAME_RESERVED_MESSAGE})
    if username_mixes_scripts(username):
        raise ValidationError({"username": MIXED_SCRIPTS_MESSAGE})
    if User.objects.filter(username_folded=folded).exists():
        raise ValidationError({"username": USERNAME_TAKEN_MESSAGE})
    candidate = User(username=username)
    try:
        password_validation.validate_password(password, user=candidate)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from exc
    try:
        # A savepoint, so a lost race on the unique name leaves the outer
        # transaction usable.
        with transaction.atomic():
            return User.objects.create_user(username=username, password=password)
    except IntegrityError as exc:
        raise ValidationError({"username": USERNAME_TAKEN_MESSAGE}) from exc


def user_authenticate(
    *, username: str, password: str, request: HttpRequest | None = None
) -> User:
    """The person these credentials belong to, or ``LoginRefused``.

    The name is matched whatever its case (``accounts.selectors.user_find``).
    Bot accounts are refused by name with their own code before any password
    is checked: the server plays them, nobody logs in as one.
    """
    named = user_find(username=username)
    if named is not None and named.is_bot:
        raise LoginRefused("bot_account", BOT_LOGIN_MESSAGE)
    user = authenticate(request, username=username, password=password)
    if not isinstance(user, User):
        raise LoginRefused("invalid_credentials", BAD_CREDENTIALS_MESSAGE)
    return user


def token_get_or_create(*, user: User) -> str:
    """The user's API token key, created on first use; refuses bots."""
    if user.is_bot:
        raise LoginRefused("bot_account", BOT_LOGIN_MESSAGE)
    token, _ = Token.objects.get_or_create(user=user)
    return str(token.key)


@transaction.atomic
def password_change(*, user: User, old_password: str, new_password: str) -> User:
    """Set a new password, as after a leak: it also revokes the API token.

    ``old_password`` must be the current one (``LoginRefused``
    ``invalid_credentials``), and the new one must pass Django's password
    validators (``ValidationError`` on ``new_password``). Every browser
    session opened before ends (Django checks a session against the
    password's hash; the caller keeps its own with
    ``update_session_auth_hash``), the token is deleted (a new one comes
    from ``POST /api/accounts/token/``), and the person's open live sockets
    are closed (``accounts.signals``). Returns the updated user.
    """
    # FOR NO KEY UPDATE, not FOR UPDATE: a move made with the token holds
    # the token's row and, at its commit, takes the person's row shared for
    # its events' actor (FOR KEY SHARE, the foreign key's check). FOR UPDATE
    # would wait for that and the move for it: a deadlock, the move a 500.
    # This waits for the move at the token's delete instead.
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if not user.check_password(old_password):
        raise LoginRefused("invalid_credentials", WRONG_PASSWORD_MESSAGE)
    try:
        password_validation.validate_password(new_password, user=user)
    except ValidationError as exc:
        raise ValidationError({"new_password": exc.messages}) from exc
    return _password_replace(user, new_password)


@transaction.atomic
def password_set(*, user: User, new_password: str | None) -> User:
    """Set a person's password without their current one, as the admin does.

    ``None`` removes it (no log-in with a password at all). It ends what the
    old password opened, as ``password_change`` does: every browser session,
    the API token and the person's open live sockets. The caller has checked
    who may do it and run the password validators (the admin's forms).
    Returns the updated user.
    """
    # The row is locked as in password_change, for the same reason.
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    return _password_replace(user, new_password)


def _password_replace(user: User, new_password: str | None) -> User:
    """Give ``user`` (its row locked) ``new_password`` (``None``: none) and
    revoke the old one's sessions, token and sockets, once committed."""
    if new_password is None:
        user.set_unusable_password()
    else:
        user.set_password(new_password)
    user.save(update_fields=["password"])
    _old_credentials_revoked(user)
    return user


@transaction.atomic
def credentials_revoke(*, user: User) -> None:
    """End what a password just changed elsewhere had opened (``manage.py
    changepassword``, which sets it through Django's own command): the API
    token, and, once committed, the person's other browser sessions and open
    live sockets, as ``password_change`` and ``password_set`` do."""
    _old_credentials_revoked(user)


def _old_credentials_revoked(user: User) -> None:
    Token.objects.filter(user=user).delete()
    credentials_revoked_on_commit(user.pk, sessions=True)


def token_revoke(*, user: User) -> bool:
    """Delete the person's API token, if they have one: programs using it
    are refused from then on, and its open live sockets are closed
    (``accounts.receivers``). Whether there was one to delete."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)


def bot_account_get(*, level: str) -> User:
    """The house bot account that plays at ``level``, created if missing.

    Tables seat this account for every bot seat of that level (a house bot may
    hold several seats at one table).
    """
    bot_level = BotLevel(level)
    bot = User.objects.filter(username=bot_username(bot_level), is_bot=True).first()
    if bot is not None:
        return bot
    for bot, _ in bot_accounts_ensure():
        if bot.bot_level == bot_level.value:
            return bot
    raise AssertionError(f"no house bot for {level!r}")  # pragma: no cover
