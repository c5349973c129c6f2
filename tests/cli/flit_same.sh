#!/usr/bin/env bash
# The flit engines give the same bytes as before their speed work (issue 21: the path cache,
# the step's counters; issue 23: threads): every run listed in tests/data/flit_same.txt
# (mesh, torus, ring, butterfly, k-ary n-fly, dragonfly, k-ary n-tree, Beneš, LCAN, fat-tree
# and cms_lower_bound; the four switching models, link=shared, collapse, on_delay=discard;
# dateline and partition classes; direct, yx, Valiant, Ranade and the adaptive routings;
# batch and open loop, several seeds; deadlocks; the algorithms that drive a flit engine)
# must print exactly what the base commit printed, its stdout, stderr and exit status hashing
# to the recorded value, at threads=1 (the default) and at threads=2.
. "$(dirname "$0")/lib.bash"

same_runs "${RS_TEST_DATA:-$(dirname "$0")/../data}/flit_same.txt" 218 cat "" threads=2
finish
