#!/usr/bin/env bash
# `npm run demo`: a short, real session against the bundled mock service — no keychain, no network.
# Starts `appraisal mock` on a free port, runs a few commands against it, and stops it again.
# (npm run demo builds first; run `node scripts/build.mjs` yourself when calling this directly.)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if [ ! -f dist/cli.cjs ]; then
  echo "error: appraisal-cli is not built yet; run \`npm run demo\` (or \`npm run build\` first)" >&2
  exit 1
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/appraisal-demo.XXXXXX")"
MOCK_PID=''
cleanup() {
  local status=$?
  if [ -n "$MOCK_PID" ] && kill -0 "$MOCK_PID" 2>/dev/null; then
    kill "$MOCK_PID" 2>/dev/null || true
    # Not our child (it detached): wait until it is gone (it removes its CA directory on the way).
    for _ in $(seq 1 100); do kill -0 "$MOCK_PID" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A private config dir, and nothing inherited that could point the demo anywhere else.
export APPRAISAL_CONFIG_DIR="$WORK/config"
unset APPRAISAL_PROFILE APPRAISAL_BASE_URL APPRAISAL_API_KEY APPRAISAL_TOKEN APPRAISAL_CA_FILE || true
export NO_COLOR=1

appraisal() { node "$ROOT/bin/appraisal.js" "$@"; }
step() { printf '\n==> %s\n' "$*"; }

step "appraisal mock --port 0 --records 1000 --seed 7 --detach --write-env mock.env"
# --detach returns once the mock listens; --write-env puts its APPRAISAL_*=... lines and pid in a 0600 file.
if ! node "$ROOT/bin/appraisal.js" mock --port 0 --records 1000 --seed 7 --detach --write-env "$WORK/mock.env"; then
  echo "error: the mock service did not start (its error is above)" >&2
  exit 1
fi
while IFS= read -r line; do
  case "$line" in
    APPRAISAL_BASE_URL=* | APPRAISAL_API_KEY=* | APPRAISAL_CA_FILE=*) eval "export $line" ;;
    APPRAISAL_MOCK_PID=*) MOCK_PID="${line#APPRAISAL_MOCK_PID=}" ;;
  esac
done <"$WORK/mock.env"
echo "mock listening at $APPRAISAL_BASE_URL (its admin key is in APPRAISAL_API_KEY; the CLI shows only its prefix)"

step "appraisal auth status"
appraisal auth status

step "appraisal props list --max-items 10 -o table"
appraisal props list --max-items 10 -o table

step "appraisal props list -o ndjson --out properties.ndjson"
appraisal props list -o ndjson --out "$WORK/properties.ndjson"
count="$(wc -l <"$WORK/properties.ndjson" | tr -d ' ')"
echo "properties.ndjson: $count records"

step "appraisal files upload inspection-report.pdf -o table"
printf '%s\n' '%PDF-1.4' '1 0 obj << /Type /Catalog >> endobj' '% appraisal-cli demo: a tiny PDF-shaped file' 'trailer << /Root 1 0 R >>' '%%EOF' \
  >"$WORK/inspection-report.pdf"
(cd "$WORK" && appraisal files upload inspection-report.pdf -o table)

step "appraisal sync props assignments --to duckdb:org.duckdb"
(cd "$WORK" && appraisal sync props assignments --to duckdb:org.duckdb)

step "appraisal sync props assignments --to duckdb:org.duckdb   # again: incremental, from the state in the file"
(cd "$WORK" && appraisal sync props assignments --to duckdb:org.duckdb)

step "appraisal sql \"SELECT property_type, count(*) AS properties FROM properties GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5\" --to duckdb:org.duckdb -o table"
# The tables are DuckDB's: its shell or Python read the file the same way.
(cd "$WORK" && appraisal sql "SELECT property_type, count(*) AS properties FROM properties GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5" --to duckdb:org.duckdb -o table)

step "done: stopping the mock"
