#!/usr/bin/env bash
# Install (issue 24, item 1): `cmake --install` of the build tree into a temporary prefix,
# which is then moved away from where it was installed (so nothing can rely on the install
# path, the build tree or the source tree); from the moved tree: the files are there and the
# internal headers are not, every installed header compiles on its own, the C example builds
# with pkg-config (shared and static) and prints what `routesim run` prints, `reproduce NAME
# --quick` runs from the installed data directory, the Python module imports the installed
# library, the man pages render. Under strace (when installed) nothing under the source or
# build tree is opened.
. "$(dirname "$0")/lib.bash"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(dirname "$RS")
CC=${CC:-cc}
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { PASSES=$((PASSES + 1)); }

cmake --install "$BUILD" --prefix "$TMP/stage" >"$TMP/install.log" 2>&1 || { cat "$TMP/install.log"; fail "cmake --install"; finish; exit; }
mv "$TMP/stage" "$TMP/prefix"
P=$TMP/prefix
cd "$TMP" || exit 1

for f in bin/routesim lib/libroutesim.a lib/libroutesim.so include/routesim/run.h \
         include/routesim/api.h lib/pkgconfig/routesim.pc share/man/man1/routesim.1 \
         share/man/man1/routesim-run.1 share/routesim/experiments/makedon-symvonis/claims.ini \
         lib/python3/dist-packages/routesim/__init__.py share/doc/routesim/examples/run_metrics.c; do
  [ -e "$P/$f" ] && ok || fail "not installed: $f"
done
if [ -n "${RS_MPIEXEC:-}" ]; then # built with MPI: routesim-mpi beside routesim
  [ -x "$P/bin/routesim-mpi" ] && ok || fail "not installed: bin/routesim-mpi"
fi
for h in assert.h bay_bilardi.h expr.h hugemem.h lcan.h line_reader.h load_factor.h ms_line.h \
         omega.h pruned_butterfly.h sorting_fat_tree.h; do
  [ ! -e "$P/include/routesim/$h" ] && ok || fail "internal header installed: $h"
done
n_rs=$(grep -l 'rs__' "$P"/include/routesim/*.h | wc -l)
echo "installed headers: $(ls "$P"/include/routesim | wc -l), of which $n_rs name an rs__ function or type"

# Every installed header compiles alone against the installed tree only.
for h in "$P"/include/routesim/*.h; do
  printf '#include <routesim/%s>\nint main(void) { return 0; }\n' "$(basename "$h")" >"$TMP/h.c"
  "$CC" -std=c11 -Wall -Werror -fsyntax-only -I"$P/include" "$TMP/h.c" 2>"$TMP/cc.err" && ok ||
    { fail "header $(basename "$h") does not compile alone"; head -3 "$TMP/cc.err"; }
done

# The C example, built with pkg-config against the moved prefix, shared and static.
export PKG_CONFIG_PATH=$P/lib/pkgconfig
flags=$(pkg-config --cflags --libs routesim) && ok || fail "pkg-config --cflags --libs routesim"
"$CC" "$P/share/doc/routesim/examples/run_metrics.c" $flags -Wl,-rpath,"$P/lib" -o "$TMP/ex_shared" &&
  ok || fail "example (shared) does not build"
"$CC" "$P/share/doc/routesim/examples/run_metrics.c" -static-libgcc $(pkg-config --cflags routesim) \
  "$P/lib/libroutesim.a" $(pkg-config --static --libs-only-other --libs-only-l routesim | sed 's/-lroutesim//') \
  -o "$TMP/ex_static" && ok || fail "example (static) does not build"
ldd "$TMP/ex_shared" | grep -q "$P/lib/libroutesim.so" && ok || fail "example not linked to the installed library"
want=$("$RS" run topology=butterfly N=64 traffic=uniform seed=7 --format csv |
       awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{printf "makespan %s steps, mean latency %.4f steps, %s messages delivered\n", $c["makespan"], $c["latency_mean"], $c["delivered"]}')
for ex in ex_shared ex_static; do
  [ -x "$TMP/$ex" ] || continue
  got=$("$TMP/$ex" | tail -1)
  [ "$got" = "$want" ] && ok || fail "$ex printed '$got', routesim run gives '$want'"
done

# reproduce from the installed data directory (no RS_EXPERIMENTS), from a folder outside
# the trees.
env -u RS_EXPERIMENTS "$P/bin/routesim" reproduce >"$TMP/list" 2>&1
grep -qF "reproductions in $P/bin/../share/routesim/experiments:" "$TMP/list" && ok ||
  { fail "reproduce does not list the installed experiments:"; head -3 "$TMP/list"; }
trace=()
command -v strace >/dev/null && trace=(strace -f -qq -e trace=open,openat,execve -o "$TMP/trace")
# (LeakSanitizer cannot run under ptrace: leak checks off for this one run of a sanitizer build)
env -u RS_EXPERIMENTS ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
  "${trace[@]}" "$P/bin/routesim" reproduce makedon-symvonis --quick --out "$TMP/rep" -j 2 >"$TMP/rep.log" 2>&1 &&
  [ -s "$TMP/rep/REPORT.md" ] && [ -s "$TMP/rep/chain_many_to_one.csv" ] && ok ||
  { fail "installed reproduce makedon-symvonis --quick"; tail -3 "$TMP/rep.log"; }
if [ -s "$TMP/trace" ]; then
  if grep -E "\"($SRC|$BUILD)/" "$TMP/trace" | grep -v ENOENT | head -3 | grep -q .; then
    fail "the installed binary opened files of the source or build tree:"
    grep -E "\"($SRC|$BUILD)/" "$TMP/trace" | head -3
  else
    ok
  fi
else
  echo "note: strace not installed; the check that no tree file is opened is skipped"
fi

# The Python module from the prefix loads the prefix's library.
# (Not in a sanitizer build: python3 is not instrumented, so it cannot load an instrumented
# library; tests/python is skipped there too.)
PY=${RS_PYTHON:-python3}
if [ -n "${RS_SANITIZED:-}" ]; then
  echo "skipped: the Python part (sanitizer build: python3 cannot load an instrumented library)"
elif command -v "$PY" >/dev/null; then
  got=$(env -u ROUTESIM_LIBRARY PYTHONPATH="$P/lib/python3/dist-packages" "$PY" -c \
        'import os, routesim; print(os.path.realpath(routesim._lib._name)); print(routesim.run(topology="butterfly", N=64, traffic="uniform", seed=7)["makespan"])')
  [ "$(echo "$got" | head -1)" = "$(realpath "$P/lib/libroutesim.so")" ] && ok ||
    fail "python from the prefix loaded '$(echo "$got" | head -1)'"
  [ "$(echo "$got" | tail -1)" = "$(echo "$want" | awk '{print $2}')" ] && ok || fail "python run gave '$got'"
fi

# The installed man pages render.
for m in "$P"/share/man/man1/*.1; do
  man -l "$m" >/dev/null 2>"$TMP/man.err" && [ ! -s "$TMP/man.err" ] && ok || { fail "man -l $m"; head -3 "$TMP/man.err"; }
done
finish
