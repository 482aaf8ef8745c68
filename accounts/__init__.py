"""Accounts: the custom user model (people and bots), sign-up, login, tokens."""
