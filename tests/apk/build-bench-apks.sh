#!/bin/sh
# Usage: build-bench-apks.sh OUTDIR N — N distinct apps (org.adbscope.bench.appNNN)
# built by aapt from tests/apk/labels (five locales, four icon densities),
# for bench-app-info.  Icons are drawn once and copied.
set -eu
src=$(cd "$(dirname "$0")" && pwd)
out="$1"; n="$2"
fw=/usr/share/android-framework-res/framework-res.apk
work="$out/work"
rm -rf "$work"; mkdir -p "$work/base"
cp -r "$src/labels/." "$work/base/"
for d in mdpi:48:red hdpi:72:green xhdpi:96:blue xxhdpi:144:purple; do
  dens=${d%%:*}; rest=${d#*:}; size=${rest%%:*}; colour=${rest#*:}
  mkdir -p "$work/base/res/drawable-$dens"
  convert -size "${size}x${size}" "xc:$colour" "PNG32:$work/base/res/drawable-$dens/icon.png"
done
i=0
while [ "$i" -lt "$n" ]; do
  name=$(printf 'app%03d' "$i")
  rm -rf "$work/app"; cp -r "$work/base" "$work/app"
  sed -i "s/org.adbscope.test.labels/org.adbscope.bench.$name/" "$work/app/AndroidManifest.xml"
  aapt package -f -M "$work/app/AndroidManifest.xml" -S "$work/app/res" -I "$fw" -F "$out/$name.apk" >/dev/null
  i=$((i + 1))
done
rm -rf "$work"
