#!/usr/bin/env bash
# xsim-machine --check on bad input (issue 10): one line naming the file, line and key (or
# the argument) and a non-zero status; never an uncaught exception ("bad optional access").
#   machine_check_bad_input.sh <xsim-machine>
set -u
tool=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/xsim_machine_check.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
# expect <status> <stderr regex> <args...>
expect() {
    local want=$1 re=$2; shift 2
    "$tool" "$@" >"$work/out" 2>"$work/err"
    local got=$?
    if [[ $got != "$want" ]] || ! grep -Eq -- "$re" "$work/err" || [[ $(wc -l <"$work/err") -gt 1 ]]; then
        echo "FAIL: xsim-machine $* -> status $got (want $want), stderr: $(cat "$work/err")"
        failures=$((failures + 1))
    fi
}
printf '[[network.level]]\nname = "a"\nlatency = 9007199254740993\nbandwidth = 1e9\n' >"$work/int_latency.toml"
printf '[[network.level]]\nname = "a"\nlatency = 1\nbandwidth = 9007199254740993\n' >"$work/int_bandwidth.toml"
printf '[processor]\nspeed = nan\n' >"$work/nan.toml"
expect 1 "int_latency.toml:3: key 'network.level.a.latency': is too large" --check "$work/int_latency.toml"
expect 1 "nan.toml:2: key 'processor.speed': must be a finite number" --check "$work/nan.toml"
expect 1 "$work: is a directory, not a machine configuration file" --check "$work"
expect 2 "--check: expected a machine file name, got an empty path" --check ""
expect 2 "--ranks: expected a whole number from 1 to 2147483647, got '0'" --check "$work/nan.toml" --ranks 0
# An integer bandwidth beyond 2^53 is a valid number: it loads.
if ! "$tool" --check "$work/int_bandwidth.toml" >"$work/out" 2>"$work/err" || ! grep -q '"bandwidth"' "$work/out"; then
    echo "FAIL: an integer bandwidth beyond 2^53 does not load: $(cat "$work/err")"
    failures=$((failures + 1))
fi
[[ $failures == 0 ]] && echo "PASS machine_check_bad_input" || exit 1
