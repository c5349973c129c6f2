#!/usr/bin/env bash
# Store-and-forward gives the same bytes as before its speed work (issue 23): every run
# listed in tests/data/saf_same.txt (topologies, queue placements, protocols, on_full,
# capacities and thresholds, seeds, Valiant and Ranade routing, open loop, deadlocks) must
# print exactly what the base commit printed: its stdout, stderr and exit status hash to
# the recorded value. The list was made with the binary of commit f9bba11.
# The list's open-loop runs carry arrivals=per_step, the only arrival stream f9bba11 had, and
# the `arrivals` column that key added to the record is cut from the CSV before hashing, so
# they still compare the engine byte for byte.
. "$(dirname "$0")/lib.bash"
same_runs "${RS_TEST_DATA:-$(dirname "$0")/../data}/saf_same.txt" 168 cut_arrivals
finish
