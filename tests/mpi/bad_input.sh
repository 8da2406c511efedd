#!/usr/bin/env bash
# Bad input must stop a run with one clear line naming the problem: never a crash, a hang,
# a wrong answer or a silent default. Runs tests/mpi/bad_input.c under mpirun in one case:
#   bad_input.sh <exe> <case>
# Each case gives the command line and the stderr line expected (or PASS for the controls).
set -u
exe=$1 case=$2
MPIRUN=${MPIRUN:-mpirun}
read -r -a flags <<<"${MPIRUN_FLAGS:---allow-run-as-root --oversubscribe}"
work=$(mktemp -d "${TMPDIR:-/tmp}/xsim_bad_input.XXXXXX")
trap 'rm -rf "$work"' EXIT
two=(-np 2 "$exe" -xsim-np 4 -xsim-compute none)  # the usual two-process run

# A machine whose link bandwidth is an integer beyond 2^53 (used to abort every process
# with an uncaught std::bad_optional_access).
cat >"$work/int_bandwidth.toml" <<'TOML'
[[network.level]]
name = "all"
latency = 1
bandwidth = 9007199254740993
TOML

expect=PASS
case $case in
    # Real processes started with different options: refused, naming the first difference.
    mpmd_np) cmd=(-np 1 "$exe" -xsim-np 8 sum : -np 1 "$exe" -xsim-np 16 sum)
        expect="process 0 has '-xsim-np 8' where process 1 has '-xsim-np 16'" ;;
    mpmd_env) cmd=(-np 1 env "XSIM_OPTIONS=-xsim-payload off" "$exe" -xsim-np 4 sum : -np 1 "$exe" -xsim-np 4 sum)
        expect="process 0 has '-xsim-payload off' where process 1 has no -xsim-payload" ;;
    mpmd_same) cmd=(-np 1 "$exe" -xsim-np 8 sum : -np 1 "$exe" -xsim-np=8 sum) ;;  # control: the same options
    config_dir) cmd=("${two[@]}" -xsim-config "$work" sum)
        expect="$work: is a directory, not a machine configuration file" ;;
    config_empty) cmd=("${two[@]}" -xsim-config= sum)
        expect="-xsim-config: expected a machine file name, got an empty path" ;;
    mapping_dir) cmd=("${two[@]}" -xsim-set mapping.kind=file -xsim-set "mapping.file=$work" sum)
        expect="key 'mapping.file': '$work' is a directory" ;;
    stack_huge) cmd=("${two[@]}" -xsim-stack 18446744073709551616 sum)
        expect="-xsim-stack: '18446744073709551616' is too large" ;;
    set_duplicate) cmd=("${two[@]}" -xsim-set network.level.node.name=switch sum)
        expect="key 'network.level.switch': duplicate name 'switch'" ;;
    latency_huge) cmd=("${two[@]}" -xsim-set network.level.node.latency=1e300 sum)
        expect="key 'network.level.node.latency': is too large" ;;
    int_bandwidth) cmd=("${two[@]}" -xsim-config "$work/int_bandwidth.toml" sum) ;;  # must run
    compute_twice) cmd=("${two[@]}" compute_twice)
        expect="xsim_compute\(5e\+06\): the duration is too large" ;;
    compute_negative) cmd=("${two[@]}" compute_negative)
        expect="xsim_compute\(-1\): the duration must be a finite number of seconds >= 0" ;;
    compute_nan) cmd=("${two[@]}" compute_nan)
        expect="xsim_compute\(nan\): the duration must be a finite number of seconds >= 0" ;;
    big_message) cmd=("${two[@]}" -xsim-set network.level.node.bandwidth=1 -xsim-set network.level.switch.bandwidth=1
                      -xsim-set network.level.system.bandwidth=1 big_message)
        expect="simulated rank [01]: virtual time passed xsim's limit .* in MPI_(Send|Recv)" ;;
    big_isends) cmd=("${two[@]}" -xsim-set network.level.node.bandwidth=1 -xsim-set network.level.switch.bandwidth=1
                     -xsim-set network.level.system.bandwidth=1 big_isends)
        expect="simulated rank [01]: virtual time passed xsim's limit .* in MPI_Waitall" ;;
    sleep_huge) cmd=("${two[@]}" sleep_huge)
        expect="virtual time passed xsim's limit .* in sleep" ;;
    regions_binary) cmd=("${two[@]}" -xsim-regions-in "$exe" sum)  # an ELF file
        expect="-xsim-regions-in $exe:1: byte [0-9]+ \(0x[0-9a-f]{2}\) is not text: not a regions file" ;;
    *) echo "bad_input.sh: unknown case '$case'" >&2; exit 2 ;;
esac

echo "bad_input.sh: $MPIRUN ${flags[*]} ${cmd[*]}"
timeout --kill-after=10 90 "$MPIRUN" "${flags[@]}" "${cmd[@]}" >"$work/stdout" 2>"$work/stderr" </dev/null
status=$?
cat "$work/stdout"; cat "$work/stderr" >&2
fail() { echo "FAIL bad_input.sh $case: $*" >&2; exit 1; }
[[ $status == 124 || $status == 137 ]] && fail "timed out (hang)"
if [[ $expect == PASS ]]; then
    [[ $status == 0 ]] || fail "exit status $status, expected 0"
    grep -q "^PASS bad_input" "$work/stdout" || fail "no PASS line"
else
    [[ $status != 0 ]] || fail "exit status 0, expected a refusal"
    grep -q "^PASS" "$work/stdout" && fail "printed PASS"
    grep -Eq -- "$expect" "$work/stderr" || fail "stderr has no line matching: $expect"
    grep -q "terminate called\|bad optional\|Segmentation\|core dumped" "$work/stderr" && fail "crashed"
    # Nothing from the input reaches the terminal raw: no control bytes but tab and newline.
    LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$work/stderr" && fail "stderr holds control bytes"
fi
echo "PASS bad_input.sh $case"
