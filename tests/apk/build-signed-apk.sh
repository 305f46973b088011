#!/bin/sh
# Usage: build-signed-apk.sh OUT.apk PACKAGE VERSIONCODE MINSDK KEYSTORE
# A minimal APK for PACKAGE built with Debian's aapt against
# android-framework-res, zipaligned and signed (v2 + v3) with apksigner
# using the key in KEYSTORE (made with keytool when it does not exist:
# one keystore = one signer).  The install-rule tests use these.
set -eu
out="$1"; package="$2"; version="$3"; minsdk="$4"; ks="$5"
fw=/usr/share/android-framework-res/framework-res.apk
for tool in aapt zipalign apksigner keytool; do
  command -v "$tool" >/dev/null 2>&1 || { echo "build-signed-apk.sh: $tool is missing (build-aux/debian-packages.txt)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/AndroidManifest.xml" <<XML
<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android"
    package="$package" android:versionCode="$version" android:versionName="$version">
  <uses-sdk android:minSdkVersion="$minsdk" android:targetSdkVersion="34"/>
  <application android:label="Test"/>
</manifest>
XML
aapt package -f -M "$work/AndroidManifest.xml" -I "$fw" -F "$work/u.apk" >/dev/null
zipalign -f 4 "$work/u.apk" "$work/a.apk"
if [ ! -f "$ks" ]; then
  keytool -genkeypair -keystore "$ks" -storepass adbscope -keypass adbscope -alias test \
    -keyalg RSA -keysize 2048 -validity 10000 -dname "CN=adbscope test $(basename "$ks")" >/dev/null 2>&1
fi
apksigner sign --ks "$ks" --ks-pass pass:adbscope --key-pass pass:adbscope --out "$out" "$work/a.apk"
rm -f "$out.idsig"
