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
# gnome-keyring-daemon has been seen to abort (a GLib error) in the middle of a suite. D-Bus would then
# start another on the next call, from its service file: locked, and without this script's keyring
# directory, so every keychain test after it would fail. Whenever the Secret Service is not the
# daemon started here (none, or another), start ours again in its place (its items are on disk).
secrets_owner() {
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets 2>/dev/null | awk '/uint32/ { print $2 }'
}
keep_keyring() {
  local ours
  ours="$(secrets_owner)"
  while sleep 0.5; do
    if [ "$(secrets_owner)" != "$ours" ]; then
      echo "note: gnome-keyring-daemon is gone; starting it again" >&2
      printf 'appraisal-test' | gnome-keyring-daemon --replace --unlock --components=secrets >/dev/null 2>&1 || true
      ours="$(secrets_owner)"
    fi
  done
}
keep_keyring &
keeper=$!
status=0
"$@" || status=$?
kill "$keeper" 2>/dev/null || true
# gnome-keyring 42 prints no GNOME_KEYRING_PID with --unlock (and `kill 0` would kill our own
# process group); the daemon ends with the private bus anyway.
if [ -n "${GNOME_KEYRING_PID:-}" ]; then kill "$GNOME_KEYRING_PID" 2>/dev/null || true; fi
exit $status
