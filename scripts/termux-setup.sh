#!/usr/bin/env bash
# Phone setup in one command, run from the clone inside Termux: `bash scripts/termux-setup.sh`.
# Installs the Termux packages the gateway needs (only those missing), checks Node is 22 or
# newer, writes node-gyp's android_ndk_path workaround (only when missing), runs npm install
# (which builds better-sqlite3 from source: no prebuilt binary exists for Android), puts
# `sms-gateway` on PATH, and ends with `sms-gateway doctor`. Safe to run again: a second run
# installs nothing and rewrites nothing. Nothing here runs as root or outside $PREFIX/$HOME.
set -euo pipefail

say() { printf 'setup: %s\n' "$*"; }
stop() { printf 'setup: %s\n' "$*" >&2; exit 1; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ -f "$root/package.json" ] || stop "run this from the sms-gateway clone (no package.json in $root)"
[ -n "${PREFIX:-}" ] || stop "PREFIX is not set: this script is for Termux on the phone. On a laptop run: npm install"
command -v pkg >/dev/null 2>&1 || stop "pkg is not found: this script is for Termux on the phone. On a laptop run: npm install"

# 1. Termux packages, by the command each provides. termux-api gives the termux-* commands
#    (the Termux:API app itself comes from F-Droid, see docs/phone.md); termux-services gives
#    runit, for `sms-gateway service install`.
missing=()
need() { command -v "$1" >/dev/null 2>&1 || missing+=("$2"); }
need node nodejs-lts
need python3 python
need make make
need clang clang
need ar binutils
need termux-sms-send termux-api
need sv termux-services
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  pkg install -y "${missing[@]}"
else
  say "Termux packages: all present"
fi

# 2. Node 22 or newer (better-sqlite3 13 and Fastify need it; nodejs-lts is 24).
version=$(node --version 2>/dev/null || true)
major=${version#v}
major=${major%%.*}
if ! [[ "$major" =~ ^[0-9]+$ ]] || [ "$major" -lt 22 ]; then
  stop "Node ${version:-(none)} is too old: 22 or newer is needed. Fix: pkg upgrade && pkg install nodejs-lts, then run this script again."
fi
say "Node $version"

# 3. node-gyp on Termux reads Node's common.gypi, which names android_ndk_path; Termux
#    compiles natively and has no NDK, so the variable must exist and be empty.
gypi="$HOME/.gyp/include.gypi"
if [ ! -f "$gypi" ]; then
  mkdir -p "$HOME/.gyp"
  printf "{'variables':{'android_ndk_path':''}}\n" > "$gypi"
  say "wrote $gypi (android_ndk_path workaround for node-gyp)"
elif grep -q android_ndk_path "$gypi"; then
  say "$gypi already has android_ndk_path"
else
  stop "$gypi exists but does not define android_ndk_path; add 'android_ndk_path': '' to its 'variables', then run this script again."
fi

# 4. Dependencies and the build (better-sqlite3 compiles here: a few minutes on a phone).
say "npm install (compiles better-sqlite3 on the phone; this takes a few minutes)"
(cd "$root" && npm install --no-audit --no-fund)

# 5. `sms-gateway` on PATH, pointing at this clone.
link="$PREFIX/bin/sms-gateway"
if [ "$(readlink "$link" 2>/dev/null || true)" != "$root/bin/sms-gateway" ]; then
  if [ -e "$link" ] && [ ! -L "$link" ]; then
    stop "$link exists and is not a link to this clone; remove it and run this script again."
  fi
  ln -sfn "$root/bin/sms-gateway" "$link"
  say "linked $link -> $root/bin/sms-gateway"
fi

# 6. The preflight checks, each with its fix.
say "sms-gateway doctor"
exec node "$root/bin/sms-gateway" doctor
