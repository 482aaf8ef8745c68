"""Django's PostgreSQL backend, with a cheaper check of a pooled connection
(``config.postgresql.base``)."""
