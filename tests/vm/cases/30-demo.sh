#!/bin/sh
# The `make demo` script, run as a case (same VM, same members).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e
sh "$(dirname "$0")/../demo.sh" || fail "demo failed"
vraidctl delete demo --force || fail "could not delete the demo VD"
