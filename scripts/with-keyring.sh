#!/usr/bin/env bash
# Inside dbus-run-session: start gnome-keyring's Secret Service with an unlocked login keyring kept
# in a throwaway directory, then run the given command.
set -euo pipefail
export XDG_DATA_HOME="$(mktemp -d)"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
chmod 700 "$XDG_RUNTIME_DIR"
eval "$(printf 'appraisal-test' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK 2>/dev/null || true
export APPRAISAL_TEST_KEYRING=1
status=0
"$@" || status=$?
# gnome-keyring 42 prints no GNOME_KEYRING_PID with --unlock (and `kill 0` would kill our own
# process group); the daemon ends with the private bus anyway.
if [ -n "${GNOME_KEYRING_PID:-}" ]; then kill "$GNOME_KEYRING_PID" 2>/dev/null || true; fi
exit $status
