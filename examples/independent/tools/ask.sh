#!/bin/sh
# ask.sh METHOD 'PARAMS-JSON' [CONFORM]: sends one request, after the
# handshake, to this implementation and to the reference (`conform serve`,
# black box), and prints both answers. Used to reproduce DISAGREEMENTS.md.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
conform=${3:-/tmp/blind-conform}
req=$(printf '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol":1,"suite":"convspec"}}\n{"jsonrpc":"2.0","id":2,"method":"%s","params":%s}\n' "$1" "$2")
printf 'mine: '; printf '%s\n' "$req" | node "$here/adapter.mjs" | tail -n 1
printf 'ref:  '; printf '%s\n' "$req" | "$conform" serve | tail -n 1
