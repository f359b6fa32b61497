#!/bin/sh
# Runs once, when the compose PostgreSQL volume is first initialised (docker-entrypoint-initdb.d).
# One login role and one schema per service, the schema owned by the role and named like it, so
# the role's default search_path ("$user", public) lands in its own schema and it cannot write
# another service's tables. DEVELOPMENT ONLY: every role gets SERVICE_DB_PASSWORD.
set -eu
: "${SERVICE_DB_PASSWORD:?SERVICE_DB_PASSWORD must be set}"
for service in identity catalogue search requests relations jobs; do
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<SQL
CREATE ROLE "$service" LOGIN PASSWORD '$SERVICE_DB_PASSWORD';
CREATE SCHEMA "$service" AUTHORIZATION "$service";
SQL
done
# Trusted extensions the services may use, created once by the owner of the database.
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -c 'CREATE EXTENSION IF NOT EXISTS pg_trgm;'
