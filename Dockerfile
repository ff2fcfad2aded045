# The site's image, for compose.yaml (the same shape as bin/cluster: a release step, two app
# servers, a worker host, HAProxy, PostgreSQL, Redis). One image for every role: its command
# says which (bin/release, or bin/supervise with SUPERVISOR_PROGRAMS).
FROM python:3.13-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PY=/app/.venv/bin/python \
    DJANGO_STATIC_ROOT=/app/staticfiles

# GNU gettext compiles the translation catalogues; supervisor runs and restarts each
# container's processes (bin/supervise); DejaVu Sans writes the shared games' images
# (games/images.py) in every language's letters.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext supervisor fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# The production dependencies only (no dev extras), exactly as locked, every file's hash checked
# (requirements.lock, written by bin/lock).
COPY requirements.lock ./
RUN python -m venv .venv \
    && .venv/bin/pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock

COPY . .
RUN DJANGO_DEBUG=0 DJANGO_SECRET_KEY=only-to-compile-the-catalogues \
        .venv/bin/python manage.py compilemessages --ignore=.venv --verbosity 0 \
    && useradd --system --no-create-home --home-dir /app site \
    && mkdir -p /app/staticfiles \
    && chown site /app/staticfiles

USER site
EXPOSE 8000
CMD ["bin/supervise"]
