# Sourced by the comparison scripts (tests/mpi/compare_*.sh, tests/conformance/compare_*.sh):
# several runs of a program through run_mpi_case.sh, each of which must pass on its own,
# whose printed times must then be identical. The shared tail of every such script.
#
#   compare_run LABEL [run_mpi_case.sh arguments...]
#       runs the harness (with --full), prints its log, and ends the script (status 1) if
#       the run fails: a comparison of a failed run would prove nothing
#   compare_same REGEX LABEL LABEL...
#       the stdout lines matching REGEX (grep -E) of every labelled run must be byte-identical
#       to the first's, and every run must have printed a VTIME line among them (otherwise
#       nothing was compared); a difference is shown as a diff and remembered
#   compare_finish
#       exits 0 if every compare_same held, 1 otherwise
# Scripts name themselves in $compare_name (default: the script's file name).

compare_harness=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/run_mpi_case.sh
compare_name=${compare_name:-$(basename "$0" .sh)}
compare_status=0
declare -A compare_log=()

compare_run() {
    local label=$1 log
    shift
    echo "=== $compare_name: $label"
    if ! log=$(bash "$compare_harness" "$1" "$2" "$3" --full "${@:4}"); then
        echo "$log"
        echo "$compare_name: FAILED: the run '$label' failed on its own"
        exit 1
    fi
    echo "$log"
    compare_log[$label]=$log
}

compare_same() {
    local re=$1 ref_label=$2 ref lines label status=0
    shift
    ref=$(grep -E -- "$re" <<<"${compare_log[$ref_label]}")
    for label in "$@"; do
        lines=$(grep -E -- "$re" <<<"${compare_log[$label]}")
        if ! grep -qE '^VTIME ' <<<"$lines"; then
            echo "$compare_name: FAILED: no VTIME line among /$re/ in the run '$label'"
            status=1
        elif [[ $lines != "$ref" ]]; then
            echo "$compare_name: FAILED: /$re/ lines of '$label' differ from '$ref_label':"
            diff <(echo "$ref") <(echo "$lines") | head -n 40 | sed 's/^/    /'
            status=1
        fi
    done
    if [[ $status == 0 ]]; then
        echo "$compare_name: identical /$re/ lines ($(grep -c . <<<"$ref")) in: $*"
        head -n 5 <<<"$ref" | sed 's/^/    /'
    else
        compare_status=1
    fi
}

compare_finish() {
    if [[ $compare_status == 0 ]]; then echo "$compare_name: OK"; fi
    exit $compare_status
}
