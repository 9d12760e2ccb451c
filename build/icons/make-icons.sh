#!/usr/bin/env sh
# Draws the app icon and one tray icon per state with ImageMagick (`convert`).
# The PNGs are committed; run this again only to change them.
set -eu
CONVERT=${CONVERT:-convert}
cd "$(dirname "$0")"
clock() { # size colour file
  s=$1; c=$2; f=$3; r=$((s * 44 / 100)); m=$((s / 2)); w=$((s / 12 + 1))
  "$CONVERT" -size "${s}x${s}" xc:none -fill "$c" -stroke none -draw "circle $m,$m $m,$((m - r))" \
    -stroke white -strokewidth "$w" -draw "line $m,$m $m,$((m - r * 6 / 10))" -draw "line $m,$m $((m + r / 2)),$m" "$f"
}
clock 512 '#2563eb' icon.png
clock 32 '#16a34a' tray/ok.png
clock 32 '#dc2626' tray/failing.png
clock 32 '#6b7280' tray/offline.png
"$CONVERT" -size 32x32 xc:none -fill none -stroke '#6b7280' -strokewidth 3 -draw 'circle 16,16 16,3' tray/signed-out.png
