# One image for every process of the full stack: web (uvicorn), worker, beat.
# docker-compose.yml picks the command; production settings are the default.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production

WORKDIR /app
RUN useradd --create-home --uid 1000 cardroom

# Dependencies first, from pyproject.toml alone, so code changes reuse this layer.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY . .
RUN pip install --no-deps -e . \
    && SECRET_KEY="collectstatic-only-$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
       ALLOWED_HOSTS=localhost DATABASE_URL=postgres://build@localhost/unused \
       python manage.py collectstatic --noinput --verbosity 0 \
    && mkdir -p /app/var \
    && chown cardroom /app/var

USER cardroom
EXPOSE 8000
ENV BIN="" HOST=0.0.0.0 PORT=8000
CMD ["scripts/web.sh"]
