#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests when it is missing (never a browser download
# by Playwright), and a CJK font so that screenshots of Japanese pages show text, not boxes.
# Needs root or sudo; prints what to do otherwise.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
fc-list 2>/dev/null | grep -qi "noto.*cjk" || missing+=(fonts-noto-cjk)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "missing ${missing[*]} and this user cannot install them; run: apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
