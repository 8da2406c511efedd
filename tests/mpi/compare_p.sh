#!/usr/bin/env bash
# Determinism across the number of real processes: run one test program with the
# same N at several P and require byte-identical VTIME and ORDER lines.
#
# usage: compare_p.sh <exe> <N> [--procs "1 2 4"] [run_case.sh options] [-- app args...]
#   --procs "LIST"   values of P to run (default "1 2"); at least two
# Every run must pass on its own (run_case.sh), and at least one VTIME line must
# be present, otherwise nothing would have been compared.
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ $# -ge 2 ]] || { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
exe=$1 nranks=$2
shift 2
procs="1 2"
if [[ $# -ge 2 && $1 == --procs ]]; then
    procs=$2
    shift 2
fi
read -r -a plist <<<"$procs"
[[ ${#plist[@]} -ge 2 ]] || { echo "compare_p.sh: need at least two values of P" >&2; exit 2; }

ref='' ref_p='' status=0
for p in "${plist[@]}"; do
    echo "=== P=$p N=$nranks"
    if ! log=$(bash "$here/run_case.sh" "$exe" "$p" "$nranks" "$@"); then
        echo "$log"
        echo "compare_p: FAILED: the run with P=$p failed"
        exit 1
    fi
    echo "$log"
    lines=$(grep -E '^(VTIME|ORDER) ' <<<"$log")
    if ! grep -qE '^VTIME ' <<<"$lines"; then
        echo "compare_p: FAILED: no VTIME line with P=$p"
        exit 1
    fi
    if [[ -z $ref_p ]]; then
        ref=$lines ref_p=$p
    elif [[ $lines != "$ref" ]]; then
        echo "compare_p: FAILED: P=$p differs from P=$ref_p:"
        diff <(echo "$ref") <(echo "$lines") | sed 's/^/    /'
        status=1
    fi
done
if [[ $status == 0 ]]; then
    echo "compare_p: OK: identical for P in {${plist[*]}}:"
    sed 's/^/    /' <<<"$ref"
fi
exit $status
