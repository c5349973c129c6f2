# Helpers for the CLI tests: run the binary, check exit status, stderr and stdout.
# Each test script sources this file with the routesim binary as $1.
set -u
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: bash ${0#./} PATH/TO/routesim (the routesim binary to test, e.g. build/routesim)" >&2
  exit 2
fi
RS=$(realpath "$1")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAILS=0
PASSES=0

# expect_fail STATUS PATTERN ARGS...: exit status STATUS, exactly one stderr line matching
# PATTERN (grep -E), nothing on stdout.
expect_fail() {
  local want=$1 pat=$2; shift 2
  "$RS" "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  local lines; lines=$(wc -l <"$TMP/err")
  if [ "$got" != "$want" ] || [ "$lines" != 1 ] || ! grep -Eq -- "$pat" "$TMP/err" || [ -s "$TMP/out" ]; then
    echo "FAIL: routesim $* -> status $got (want $want), stderr:"; cat "$TMP/err"
    echo "      stdout bytes: $(wc -c <"$TMP/out"), wanted stderr /$pat/"
    FAILS=$((FAILS + 1))
  else
    PASSES=$((PASSES + 1))
  fi
}

# expect_ok PATTERN ARGS...: status 0 and stdout matching PATTERN (grep -E).
expect_ok() {
  local pat=$1; shift
  "$RS" "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" != 0 ] || ! grep -Eq -- "$pat" "$TMP/out"; then
    echo "FAIL: routesim $* -> status $got, stdout/stderr:"; head -5 "$TMP/out"; cat "$TMP/err"
    echo "      wanted stdout /$pat/"
    FAILS=$((FAILS + 1))
  else
    PASSES=$((PASSES + 1))
  fi
}

finish() {
  echo "$PASSES passed, $FAILS failed"
  [ "$FAILS" = 0 ]
}

# csvcol NAME FILE: the 1-based index of column NAME in the header of CSV FILE (for awk),
# so that tests do not depend on column positions.
csvcol() {
  head -1 "$2" | tr ',' '\n' | grep -nxF -- "$1" | cut -d: -f1
}

# catches_int PID: the process has installed its SIGINT handler (SigCgt of /proc/PID/status).
# A background job of a script starts with SIGINT ignored, so a signal sent before the
# handler exists (a slow start: sanitizer builds, a loaded machine) would be lost.
catches_int() {
  local m
  m=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
  [ -n "$m" ] && [ $((0x$m & 2)) -ne 0 ]
}
wait_catches_int() { # at most 60 s
  local n=600
  while [ "$n" -gt 0 ]; do catches_int "$1" && return 0; sleep 0.1; n=$((n - 1)); done
  return 1
}

# check, metric and count of the event-log tests (events*.sh)
check() { # check NAME COMMAND...: the command succeeds
  local name=$1; shift
  if "$@"; then PASSES=$((PASSES + 1)); else echo "FAIL: $name"; FAILS=$((FAILS + 1)); fi
}
metric() { # metric NAME CSVFILE: the value of column NAME in the record's one row
  awk -F, -v c="$(csvcol "$1" "$2")" 'NR == 2 {print $c}' "$2"
}
count() { # count KIND LOG: records of that kind
  awk -F, -v k="$1" '$2 == k' "$2" | wc -l
}

# mpi_setup: for the tests that start mpirun. Exits 77 (skipped) with a clear message when
# routesim was built without MPI (CMake passes RS_MPIEXEC, empty then); lets Open MPI run
# as root. mpi NP ARGS...: routesim under mpirun --oversubscribe on localhost.
mpi_setup() {
  if [ -z "${RS_MPIEXEC:-}" ]; then
    echo "SKIPPED: routesim was built without MPI (CMake found none: install openmpi-bin and libopenmpi-dev, e.g. scripts/setup.sh, and configure again)"
    exit 77
  fi
  if [ "$(id -u)" = 0 ]; then # Open MPI refuses root unless told
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
}
mpi() { # mpi NP ARGS...: routesim under mpirun on localhost
  local np=$1; shift
  # Under `make sanitize`, LeakSanitizer reports Open MPI's own allocations, made by MCA
  # components that are unloaded before the report (no name to suppress them by): leak
  # checks stay off for the MPI runs only; AddressSanitizer's other checks stay on (the
  # task and reply code is leak-checked by tests/exp/test_sweep_wire.c).
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    timeout 300 "$RS_MPIEXEC" --oversubscribe -np "$np" "$RS" "$@"
}

# threads_same T ARGS...: `routesim run ARGS threads=T --format csv` gives the bytes and exit
# status that $TMP/t1 holds (the same run at threads=1, written the same way: output, stderr,
# then "rc=STATUS"); counts a pass or a failure with the difference.
threads_same() {
  local T=$1; shift
  { "$RS" run "$@" threads="$T" --format csv 2>&1; echo "rc=$?"; } >"$TMP/t$T"
  if cmp -s "$TMP/t1" "$TMP/t$T"; then PASSES=$((PASSES + 1)); else
    echo "FAIL: routesim run $*: threads=$T differs from threads=1:"
    diff "$TMP/t1" "$TMP/t$T" | head -6
    FAILS=$((FAILS + 1))
  fi
}

# cut_arrivals: CSV on stdin without its column named `arrivals` (header and every row); other lines as they are
cut_arrivals() {
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "arrivals") c = i }
    c && NF >= c { for (i = c; i < NF; i++) $i = $(i + 1); NF--; }
    { print }'
}

# same_runs LIST MIN FILTER [SUFFIX...]: every "HASH CONFIG" line of LIST (lines starting
# with # and blank lines skipped) runs as `routesim run CONFIG SUFFIX --format csv` once for
# each SUFFIX (none given: once as it is); its stdout, stderr and "rc=STATUS", piped through
# the command FILTER (cat: as they are), must hash (sha256, first 16 hex digits) to HASH.
# A LIST of fewer than MIN runs fails too: a missing or cut list must not pass unnoticed.
same_runs() {
  local list=$1 min=$2 filter=$3; shift 3
  local suffixes=("$@") want config suffix got runs=0
  [ ${#suffixes[@]} -gt 0 ] || suffixes=("")
  while read -r want config; do
    case $want in '#'*|'') continue ;; esac
    runs=$((runs + 1))
    for suffix in "${suffixes[@]}"; do
      # shellcheck disable=SC2086 # the configuration is a list of key=value words
      got=$( { "$RS" run $config $suffix --format csv 2>&1; echo "rc=$?"; } | $filter |
        sha256sum | cut -c1-16)
      if [ "$got" != "$want" ]; then
        echo "FAIL: routesim run $config $suffix --format csv: output hash $got, recorded $want; output:"
        # shellcheck disable=SC2086
        "$RS" run $config $suffix --format csv 2>&1 | head -5
        FAILS=$((FAILS + 1))
      else
        PASSES=$((PASSES + 1))
      fi
    done
  done < "$list"
  if [ "$runs" -lt "$min" ]; then
    echo "FAIL: $list has $runs runs (want at least $min)"; FAILS=$((FAILS + 1))
  fi
}
