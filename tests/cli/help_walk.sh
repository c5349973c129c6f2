#!/usr/bin/env bash
# Help and man pages (issue 24, item 4): `help KEY` for every key (`list keys` lists them,
# and they include every key `list` shows) with its type, default or per-module defaults,
# range, unit (one of `help units`, which docs/cli.md lists too; exact output of a few keys),
# meaning, readers and an example; `help METRIC` for every metric `list
# metrics` shows; `CMD --help` and `CMD -h` for every command (exit 0, the command's usage
# and options); `-c -` reads the configuration from standard input; the man pages the build
# wrote are those `help --man` writes now and render with `man -l` without a warning.
. "$(dirname "$0")/lib.bash"
MAN=$(dirname "$RS")/man
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { PASSES=$((PASSES + 1)); }

# The units (rs_opt_units): `help units` lists them, docs/cli.md's table names the same ones.
"$RS" help units >"$TMP/units" || fail "help units"
awk 'NR > 1 {print $1}' "$TMP/units" | sort >"$TMP/unit_names"
[ "$(wc -l <"$TMP/unit_names")" -ge 10 ] && grep -qx -- - "$TMP/unit_names" &&
  grep -qx 1 "$TMP/unit_names" && ok || fail "help units lists $(wc -l <"$TMP/unit_names") units"
sed -n 's/^| `\([^`]*\)` | .*/\1/p' "$(dirname "$0")/../../docs/cli.md" | sort >"$TMP/doc_units"
cmp -s "$TMP/unit_names" "$TMP/doc_units" && ok ||
  fail "docs/cli.md's units differ from help units: $(diff "$TMP/unit_names" "$TMP/doc_units" | tr '\n' ' ')"

"$RS" list keys >"$TMP/keys" || fail "list keys"
[ "$(wc -l <"$TMP/keys")" -gt 100 ] && ok || fail "list keys lists $(wc -l <"$TMP/keys") keys"
[ "$(sort "$TMP/keys" | uniq -d | wc -l)" = 0 ] && ok || fail "list keys lists a key twice"
"$RS" list | grep -E '^ +[A-Za-z_0-9]+ +(int|double|bool|choice|string|list) +default ' |
  awk '{print $1}' | sort -u >"$TMP/listed"
missing=$(comm -23 "$TMP/listed" <(sort -u "$TMP/keys"))
[ -z "$missing" ] && ok || fail "keys in list but not in list keys: $missing"
while read -r key; do
  "$RS" help "$key" >"$TMP/h" 2>"$TMP/e"
  st=$?
  if [ $st = 0 ] && grep -q "^key $key\$" "$TMP/h" && grep -q '^  type: ' "$TMP/h" &&
     grep -Eq '^  (default: |read by:$)' "$TMP/h" && grep -Eq '(^  range: |, range )' "$TMP/h" &&
     grep -q '^  unit: ' "$TMP/h" && grep -q '^  meaning: ' "$TMP/h" &&
     grep -q '^  read by:' "$TMP/h" && grep -q "^  example: routesim [a-z]* .*$key=" "$TMP/h" &&
     [ ! -s "$TMP/e" ]; then
    ok
  else
    fail "help $key (status $st):"; head -4 "$TMP/h" "$TMP/e"
  fi
  # every declaration's unit is one of help units; a choice or a flag has none ("-")
  bad=$(awk -v units="$TMP/unit_names" '
    BEGIN { while ((getline u < units) > 0) known[u] = 1 }
    /^  type: / { type = $2 }
    /^  unit: / { u = substr($0, 9)
                  if (!(u in known) || ((type == "choice" || type == "boolean") && u != "-"))
                    print type " with unit \"" u "\"" }' "$TMP/h")
  [ -z "$bad" ] && ok || fail "help $key: $bad"
done <"$TMP/keys"
# Exact help of keys with units: a rate, a key with two meanings (each with its unit), an
# identifier without unit, a topology's size, a BookSim router delay.
check_help() {
  "$RS" help "$1" >"$TMP/h" 2>&1 && diff -u "$TMP/want" "$TMP/h" >"$TMP/d" && ok ||
    { fail "help $1 differs:"; cat "$TMP/d"; }
}
cat >"$TMP/want" <<'EOT'
key injection_rate
  type: number
  default: 0.1
  range: 0 to 1
  unit: packets/terminal/step
  meaning: bernoulli: packets per terminal per step (flits with injection_rate_uses_flits=1)
  read by: switching=store_forward switching=circuit switching=wormhole switching=virtual_cut_through switching=cut_through_partial switching=store_forward_flits
  example: routesim run switching=store_forward injection_rate=0.1
EOT
check_help injection_rate
cat >"$TMP/want" <<'EOT'
key vc_depth
  type: integer
  default: 1
  range: 1 to 65535
  unit: flits
  meaning: flits per virtual-channel buffer (001 §1.1: 1)
  read by: switching=wormhole
  example: routesim run switching=wormhole vc_depth=1
key vc_depth
  type: integer
  default: 0
  range: 0 to 65535
  unit: flits
  meaning: flits per channel FIFO (003's k; 0: the message length)
  read by: switching=cut_through_partial
  example: routesim run switching=cut_through_partial vc_depth=0
EOT
check_help vc_depth
cat >"$TMP/want" <<'EOT'
key seed
  type: integer
  default: 1
  range: 0 to 9007199254740991
  unit: -
  meaning: seed of every random choice (workload, Valiant, protocol)
  read by: (every run)
  example: routesim run seed=1
EOT
check_help seed
cat >"$TMP/want" <<'EOT'
key T
  type: integer
  default: 1
  range: 1 to 256
  unit: terminals
  meaning: terminals per router (concentration)
  read by: topology=hyperx
  example: routesim topo topology=hyperx T=1
EOT
check_help T
cat >"$TMP/want" <<'EOT'
key routing_delay
  type: integer
  default: 1
  range: 0 to 64
  unit: cycles
  meaning: router=iq: cycles of route computation
  read by: switching=wormhole switching=virtual_cut_through
  example: routesim run switching=wormhole routing_delay=1
EOT
check_help routing_delay
# The listings show the unit after the range (blank for "-").
expect_ok '^  T  int     default 1    \[1, 256\]  terminals  terminals per router' help hyperx
# A key several topologies declare with different ranges names each with its own.
expect_ok '^    topology=benes \(default 8, range 2 to 33554432\)$' help N

"$RS" list metrics | awk '/^  [^ ]/ {print $1}' >"$TMP/metrics"
[ "$(wc -l <"$TMP/metrics")" -gt 20 ] && ok || fail "list metrics gave $(wc -l <"$TMP/metrics") names"
while read -r m; do
  name=${m//<l>/1} # a per-level metric: level 1
  "$RS" help "$name" >"$TMP/h" 2>"$TMP/e" && grep -q "^metric $name (" "$TMP/h" && ok ||
    { fail "help $name:"; head -3 "$TMP/h" "$TMP/e"; }
done <"$TMP/metrics"

for cmd in $("$RS" help | sed -n 's/^  \([a-z][a-z]*\)\( .*\)\{0,1\}$/\1/p'); do
  for h in --help -h; do
    "$RS" "$cmd" $h >"$TMP/h" 2>"$TMP/e"
    [ $? = 0 ] && grep -q "^usage: routesim $cmd" "$TMP/h" && [ ! -s "$TMP/e" ] && ok ||
      { fail "$cmd $h"; head -3 "$TMP/h" "$TMP/e"; }
  done
  [ -f "$MAN/routesim-$cmd.1" ] && ok || fail "no man page routesim-$cmd.1"
done
expect_ok '^  -j, --jobs N ' sweep --help
expect_ok '^  --save-traffic FILE ' run --help
expect_fail 2 "no help on 'N2' \(did you mean" help N2

# -c -: standard input, as a file would be.
printf 'topology = butterfly\nN = 16\ntraffic = bitrev\n' >"$TMP/r.ini"
"$RS" run -c "$TMP/r.ini" --format csv >"$TMP/a.csv" && "$RS" run -c - --format csv <"$TMP/r.ini" >"$TMP/b.csv" &&
  cmp -s "$TMP/a.csv" "$TMP/b.csv" && ok || fail "run -c - differs from run -c FILE"
printf 'topology = butterfly\nN = 16\n' | "$RS" run -c - N=32 --format csv | grep -q '^butterfly,32,' && ok ||
  fail "run -c - with an override"
printf 'topology = butterfly\nN = 1000\n' | "$RS" run -c - >"$TMP/out" 2>"$TMP/err"
[ $? = 2 ] && grep -q "^routesim: " "$TMP/err" && [ "$(wc -l <"$TMP/err")" = 1 ] && ok ||
  { fail "bad input on -c -:"; cat "$TMP/err"; }
printf 'N = abc\n' | "$RS" run -c - 2>"$TMP/err"
grep -q "^routesim: <stdin>:1: key 'N'" "$TMP/err" && ok || { fail "-c - error does not name <stdin>:"; cat "$TMP/err"; }

# Man pages: fresh, and rendered without a warning.
"$RS" help --man >"$TMP/routesim.1" && cmp -s "$TMP/routesim.1" "$MAN/routesim.1" && ok ||
  fail "build/man/routesim.1 is not what help --man writes"
expect_fail 2 "no man page for 'nope'" help --man nope
for m in "$MAN"/*.1; do
  MANWIDTH=80 man -l "$m" >"$TMP/page" 2>"$TMP/e"
  [ $? = 0 ] && [ ! -s "$TMP/e" ] && grep -q '^NAME' "$TMP/page" && ok || { fail "man -l $m:"; head -3 "$TMP/e"; }
  groff -man -ww -z "$m" 2>"$TMP/e" && [ ! -s "$TMP/e" ] && ok || { fail "groff warns on $m:"; head -3 "$TMP/e"; }
done
finish
