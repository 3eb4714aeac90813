#!/bin/sh
# The table's screen: Chromium in kiosk mode, made the table's console (docs/install.md,
# docs/security.md). Run it from the kiosk user's desktop autostart; that user is in the
# tablectl group, which may read the console secret (mode 0640).
#
# The console URL holds the secret, so it never goes on Chromium's command line (every
# local user can read that in ps): it goes in a page in the user's own runtime folder,
# which sends the browser on to it; the controller then sets the console cookie and
# sends the browser to / at once.
set -eu
CONFIG=${TABLECTL_CONFIG:-/etc/tablectl/table.toml}
TABLECTL=${TABLECTL:-/opt/tablectl/.venv/bin/tablectl}
RUNTIME=${XDG_RUNTIME_DIR:?the kiosk runs in a desktop session}
START="$RUNTIME/tablectl-kiosk.html"

# the service creates the secret on its first start: wait for it
until url=$("$TABLECTL" kiosk-url --config "$CONFIG" 2>/dev/null); do sleep 2; done
umask 077
printf '<!doctype html><meta http-equiv="refresh" content="0;url=%s">\n' "$url" > "$START"
(sleep 15; rm -f "$START") &  # the browser has been there by then
exec chromium --kiosk --incognito --noerrdialogs --disable-session-crashed-bubble \
    --no-first-run --disable-extensions "file://$START"
