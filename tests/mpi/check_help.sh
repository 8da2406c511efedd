#!/usr/bin/env bash
# Runs <exe> -xsim-np N -xsim-help [xsim options] on P real processes (mpirun -np P) and checks
# that it exits 0 and prints exactly one line matching the extended REGEX on stdout (what the
# help says of this run). Honours MPIRUN and MPIRUN_FLAGS as run_mpi_case.sh does.
# usage: check_help.sh <exe> <P> <N> REGEX [xsim options...]
set -u -o pipefail
[[ $# -ge 4 ]] || { echo "usage: check_help.sh <exe> <P> <N> REGEX [xsim options...]" >&2; exit 2; }
exe=$1 procs=$2 nranks=$3 re=$4
shift 4
out=$(mktemp -d "${TMPDIR:-/tmp}/xsim_help.XXXXXX")
# shellcheck disable=SC2086
timeout 100 ${MPIRUN:-mpirun} ${MPIRUN_FLAGS:---allow-run-as-root --oversubscribe} -np "$procs" \
    "$exe" -xsim-np "$nranks" -xsim-help "$@" >"$out/stdout" 2>"$out/stderr"
rc=$?
count=$(grep -cE -- "$re" "$out/stdout")
problems=()
[[ $rc == 0 ]] || problems+=("exit status $rc")
[[ $count == 1 ]] || problems+=("expected exactly one stdout line matching /$re/, found $count")
if [[ ${#problems[@]} -gt 0 ]]; then
    printf 'check_help.sh: %s\n' "${problems[@]}" >&2
    sed 's/^/    stderr: /' "$out/stderr" | head -20 >&2
    grep -E '^This run' "$out/stdout" | sed 's/^/    stdout: /' >&2
    rm -rf "$out"
    exit 1
fi
grep -E -- "$re" "$out/stdout"
rm -rf "$out"
