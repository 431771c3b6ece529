#!/usr/bin/env bash
# The whole suite (vitest's global setup builds dist/ when it is stale: test/global-setup.ts). Keychain tests need a real Secret Service, so the
# suite runs inside a private D-Bus session with an unlocked gnome-keyring when one is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  exec dbus-run-session -- bash scripts/with-keyring.sh node scripts/vitest-summary.mjs "$@"
fi
if [ "${CI:-}" = "true" ]; then
  echo "error: CI needs gnome-keyring and dbus for the keychain tests (.ci/run installs them)" >&2
  exit 1
fi
echo "note: no Secret Service here (apt-get install -y gnome-keyring dbus): keychain tests are skipped" >&2
APPRAISAL_TEST_NO_KEYRING=1 exec node scripts/vitest-summary.mjs "$@"
