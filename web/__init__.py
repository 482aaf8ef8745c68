"""Web: the browser client's templates and static ES modules (no build step)."""
