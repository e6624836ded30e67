#!/usr/bin/env bash
# Vendors the browser terminal of the /play page into web/assets/vendor/ from the npm registry,
# at the exact versions (and integrity hashes) of package-lock.json, with their licences: the
# binary embeds those files, so `cargo run --release` needs only a Rust toolchain.
#
#   web/vendor/update.sh            the files of the versions locked
#   web/vendor/update.sh --latest   first move package.json and the lockfile to the latest
#                                   releases, then the same
#   web/vendor/update.sh XTERM FIT  first move them to these exact versions (a beta, say:
#                                   6.1.0-beta.338 0.12.0-beta.333), then the same
#
# The /play page needs an xterm.js with the kitty keyboard protocol (vtExtensions.kittyKeyboard,
# 6.1 betas and later): with 6.0.0 the browser sends no key releases.
#
# Needs Node.js and npm. Nothing of npm's runs at install (--ignore-scripts).
set -euo pipefail
cd "$(dirname "$0")"
if [ "${1:-}" = "--latest" ]; then
  npm install --package-lock-only --ignore-scripts --no-audit --no-fund \
    @xterm/xterm@latest @xterm/addon-fit@latest --save-exact
elif [ $# -eq 2 ]; then
  npm install --package-lock-only --ignore-scripts --no-audit --no-fund \
    "@xterm/xterm@$1" "@xterm/addon-fit@$2" --save-exact
elif [ $# -ne 0 ]; then
  echo "usage: $0 [--latest | XTERM_VERSION FIT_VERSION]" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp package.json package-lock.json "$work/"
(cd "$work" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
out=../assets/vendor
mkdir -p "$out"
modules="$work/node_modules/@xterm"
cp "$modules/xterm/lib/xterm.js" "$out/xterm.js"
cp "$modules/xterm/css/xterm.css" "$out/xterm.css"
cp "$modules/addon-fit/lib/addon-fit.js" "$out/addon-fit.js"
{
  echo "Vendored by web/vendor/update.sh from the npm registry; the licences follow."
  for p in xterm addon-fit; do
    v=$(node -p "require('$modules/$p/package.json').version")
    echo
    echo "== @xterm/$p $v"
    cat "$modules/$p/LICENSE"
  done
} > "$out/LICENSES.txt"
ls -l "$out"
