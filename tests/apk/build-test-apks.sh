#!/bin/sh
# Usage: build-test-apks.sh OUTDIR — builds the test APKs with Debian's aapt
# against android-framework-res, from the sources beside this script and
# images drawn here with ImageMagick.  `aapt dump badging` on the results is
# the oracle the tests compare the APK reader with.
#
#   labels.apk      label @string in default, fr, de, zh-rCN, pt-rBR; icons at
#                   mdpi/hdpi/xhdpi/xxhdpi (a different colour and size each)
#   literal.apk     label a literal string, one nodpi icon, versionName @string
#   nolabel.apk     no label, no icon
#   adaptive.apk    adaptive icon (bitmap background, vector foreground) in
#                   mipmap-anydpi-v26 with PNG fallbacks; roundIcon
#   labels-utf16.apk  labels.apk with a UTF-16 resource table (aapt --utf16)
#   labels-utf8xml.apk  labels.apk with its manifest's string pool re-encoded
#                   as UTF-8, as aapt2 writes it (repack.py)
#   labels-zip64.apk  labels.apk with zip64 records and a 65535-byte comment
#   game.apk        labels (package org.adbscope.test.game) with a 100 MiB
#                   asset: what reading in place saves
set -eu
src=$(cd "$(dirname "$0")" && pwd)
out="$1"
fw=/usr/share/android-framework-res/framework-res.apk
for tool in aapt convert python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "build-test-apks.sh: $tool is missing (build-aux/debian-packages.txt)" >&2; exit 1; }
done
[ -f "$fw" ] || { echo "build-test-apks.sh: $fw is missing (apt-get install android-framework-res)" >&2; exit 1; }

mkdir -p "$out"
work="$out/work"
rm -rf "$work"
mkdir -p "$work"

# icon DIR SIZE COLOUR: a square with a circle, so density choice is visible.
icon ()
{
  mkdir -p "$(dirname "$1")"
  convert -size "$2x$2" "xc:$3" -fill white -draw "circle $(($2/2)),$(($2/2)) $(($2/2)),$(($2/4))" \
    -define png:exclude-chunks=date,time "PNG32:$1"
}

build ()
{
  name="$1"; shift
  dir="${name%-small}"
  aapt package -f -M "$work/$dir/AndroidManifest.xml" -S "$work/$dir/res" -I "$fw" \
    -F "$out/$name.apk" "$@" >/dev/null
}

# labels
mkdir -p "$work/labels"
cp -r "$src/labels/." "$work/labels/"
icon "$work/labels/res/drawable-mdpi/icon.png" 48 red
icon "$work/labels/res/drawable-hdpi/icon.png" 72 green
icon "$work/labels/res/drawable-xhdpi/icon.png" 96 blue
icon "$work/labels/res/drawable-xxhdpi/icon.png" 144 purple
build labels
cp -r "$work/labels" "$work/labels-utf16"
build labels-utf16 --utf16
python3 "$src/repack.py" --utf8-manifest "$out/labels.apk" "$out/labels-utf8xml.apk"
python3 "$src/repack.py" --zip64 --comment 65535 "$out/labels.apk" "$out/labels-zip64.apk"
cp -r "$work/labels" "$work/game"
sed -i 's/org.adbscope.test.labels/org.adbscope.test.game/' "$work/game/AndroidManifest.xml"
build game-small
python3 "$src/repack.py" --asset-mb 100 "$out/game-small.apk" "$out/game.apk"
rm "$out/game-small.apk"

# literal
mkdir -p "$work/literal"
cp -r "$src/literal/." "$work/literal/"
icon "$work/literal/res/drawable-nodpi/icon.png" 64 orange
build literal

# nolabel
mkdir -p "$work/nolabel"
cp -r "$src/nolabel/." "$work/nolabel/"
build nolabel

# adaptive
mkdir -p "$work/adaptive"
cp -r "$src/adaptive/." "$work/adaptive/"
icon "$work/adaptive/res/mipmap-mdpi/ic_launcher.png" 48 teal
icon "$work/adaptive/res/mipmap-xhdpi/ic_launcher.png" 96 teal
icon "$work/adaptive/res/mipmap-mdpi/ic_launcher_round.png" 48 navy
mkdir -p "$work/adaptive/res/drawable-nodpi"
convert -size 108x108 gradient:yellow-orange -define png:exclude-chunks=date,time \
  "PNG32:$work/adaptive/res/drawable-nodpi/ic_background.png"
build adaptive

rm -rf "$work"
