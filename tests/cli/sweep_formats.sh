#!/usr/bin/env bash
# Sweep output formats and digits: --format jsonl writes one JSON object per row with the
# CSV's columns, in order, numbers typed (parsed back by python3's json module and compared
# with the CSV cell by cell); --digits exact writes the shortest text that reads back as the
# same double (at most 17 significant digits), checked against the 17-digit value; the
# default stays 9 digits; --resume keeps rows by their identity text.
. "$(dirname "$0")/lib.bash"
cd "$TMP" || exit 1

cat >grid.ini <<'INI'
topology = butterfly
N = 2^3..2^5
traffic = uniform
queue_size = 1,2
runs = 3
seed = 5
INI

"$RS" sweep -c grid.ini -o s.csv --per-run r.csv --jobs 1 2>/dev/null
check "csv sweep" test $? = 0
"$RS" sweep -c grid.ini -o s.jsonl --per-run r.jsonl --format jsonl --jobs 1 2>/dev/null
check "jsonl sweep" test $? = 0
check "jsonl: one line per point (6, no header)" test "$(wc -l <s.jsonl)" = 6
check "jsonl: one line per run (18)" test "$(wc -l <r.jsonl)" = 18

# jsonl equals the CSV: same keys in the same order, numbers as numbers (int when the CSV
# cell is an integer), nan as null, strings as strings.
same_as_csv() { # same_as_csv CSV JSONL
  python3 - "$1" "$2" <<'PY'
import csv, json, math, sys
rows = list(csv.reader(open(sys.argv[1])))
head, rows = rows[0], rows[1:]
objs = [json.loads(l, object_pairs_hook=lambda kv: kv) for l in open(sys.argv[2])]
assert len(objs) == len(rows), (len(objs), len(rows))
for row, obj in zip(rows, objs):
    assert [k for k, _ in obj] == head, "keys differ"
    for cell, (k, v) in zip(row, obj):
        if cell in ("nan", "inf", "-inf"):
            assert v is None, (k, cell, v)
        elif isinstance(v, bool) or v is None:
            raise AssertionError((k, cell, v))
        elif isinstance(v, int):
            assert str(v) == cell, (k, cell, v)
        elif isinstance(v, float):
            assert float(cell) == v, (k, cell, v)
        else:
            assert isinstance(v, str) and v == cell, (k, cell, v)
print("ok")
PY
}
check "statistics: jsonl parsed back equals the CSV" test "$(same_as_csv s.csv s.jsonl)" = ok
check "per-run: jsonl parsed back equals the CSV" test "$(same_as_csv r.csv r.jsonl)" = ok
check "jsonl: typed numbers" grep -q '"runs":3,' s.jsonl
check "jsonl: a string is a string" grep -q '"topology":"butterfly"' s.jsonl

# --digits exact: every double's text reads back as the double the 17-digit text gives, and
# is no longer than needed (the default's 9 digits are kept where they suffice).
"$RS" sweep -c grid.ini -o e.csv --digits exact --jobs 1 2>/dev/null
"$RS" sweep -c grid.ini -o x.jsonl --format jsonl --digits exact --jobs 1 2>/dev/null
check "exact digits: same columns" test "$(head -1 e.csv)" = "$(head -1 s.csv)"
check "exact digits: jsonl equals the CSV" test "$(same_as_csv e.csv x.jsonl)" = ok
exact_ok() { # exact_ok EXACT.csv NINE.csv: exact cells agree with the 9-digit ones to 9 digits
  python3 - "$1" "$2" <<'PY'
import csv, sys
e = list(csv.reader(open(sys.argv[1])))[1:]
n = list(csv.reader(open(sys.argv[2])))[1:]
longer = 0
for re_, rn in zip(e, n):
    for a, b in zip(re_, rn):
        if a == b:
            continue
        x = float(a)                                  # the exact text
        assert "%.9g" % x == b, (a, b)                # the default is its 9-digit rounding
        digits = len(a.lstrip("-").split("e")[0].replace(".", "").lstrip("0"))
        assert 9 < digits <= 17, a
        assert float("%.*g" % (digits - 1, x)) != x, a  # shortest
        longer += 1
assert longer > 0, "no cell needed more than 9 digits"
print("ok")
PY
}
check "exact digits: 9-digit rounding, shortest, some cells longer" test "$(exact_ok e.csv s.csv)" = ok
check "default digits unchanged" cmp -s s.csv <("$RS" sweep -c grid.ini -o /dev/stdout --jobs 1 2>/dev/null)

# run --digits exact and --format jsonl
"$RS" run topology=butterfly N=8 traffic=uniform --format jsonl --digits exact >one.jsonl
check "run --format jsonl: one line" test "$(wc -l <one.jsonl)" = 1
check "run --format jsonl parses" python3 -c "import json,sys; json.loads(open('one.jsonl').read())"

# refused combinations
expect_fail 2 "--digits: expected 9 or exact, got '12'" run topology=butterfly N=8 --digits 12
expect_fail 2 "resume a sweep written as csv" sweep -c grid.ini -o z.jsonl --format jsonl --resume
expect_fail 2 "a sweep writes csv \(the default\) or jsonl" sweep -c grid.ini -o z.json --format json

# resume with exact digits: the identities are compared as the text written
head -4 e.csv >part.csv
"$RS" sweep -c grid.ini -o part.csv --digits exact --resume --jobs 1 2>err
check "resume (exact digits) keeps 3 points ($(cat err))" grep -q "3 kept from before" err
check "resume (exact digits) gives the same bytes" cmp -s part.csv e.csv
finish
