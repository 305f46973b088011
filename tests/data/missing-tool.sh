#!/bin/sh
# Stands in for a validator that configure did not find (for example inside
# the Flatpak SDK, which has no flatpak-builder): the test fails and says
# why, it is never skipped into green.
echo "required tool not found at configure time: $1 (Debian: see build-aux/debian-packages.txt)" >&2
exit 1
