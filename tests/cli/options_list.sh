#!/usr/bin/env bash
# One list of options (cli_flag_helps, src/cli/args.c): every command's usage line names
# each option its --help lists (the synopsis is generated from the list), the parser takes
# every name the help shows and suggests from the same list.
. "$(dirname "$0")/lib.bash"
cd "$TMP" || exit 1
for cmd in run analyze sweep merge reproduce topo convert saturate list help; do
  "$RS" "$cmd" --help >"h.$cmd" 2>/dev/null
  got=$(python3 - "h.$cmd" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
use = " " + lines[0] + " "
missing, inside = [], False
for line in lines[1:]:
    if line == "options:":
        inside = True
        continue
    if inside and not line.startswith("  -"):
        break
    if inside:
        names = []
        for tok in line.split():
            if not tok.startswith("-"):
                break
            names.append(tok.rstrip(","))
        if not any(" " + n + " " in use or "[" + n + " " in use or "[" + n + "]" in use
                   for n in names):
            missing.append("/".join(names))
print("ok" if not missing else "missing " + " ".join(missing))
PY
)
  check "$cmd: its usage names every option of its help ($got)" test "$got" = ok
done
check "help's usage names --man" bash -c "'$RS' help --help | head -1 | grep -qF '[--man]'"
check "run's usage names --digits and --svg" bash -c "'$RS' run --help | head -1 | grep -qF '[--svg FILE] [--png FILE] [--digits D]'"
expect_fail 2 "unknown option '--digit' \(did you mean '--digits'\?\)" run topology=ring k=4 --digit exact
expect_fail 2 "unknown option '--fromat' \(did you mean '--format'\?\)" run topology=ring k=4 --fromat csv
expect_ok "^topology,k," run topology=ring k=4 traffic=identity --output=/dev/stdout --format csv
expect_fail 2 "option '--digits' does not apply here" topo topology=ring k=4 --digits exact
finish
