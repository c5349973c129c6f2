#!/usr/bin/env python3
"""Paired whole-process speed of routesim against BookSim 2 (issue 21 item 5,
docs/PERFORMANCE.md): ROUNDS rounds, each running BookSim once and every routesim binary
REPS times, alternated; CPU time is user + system of the child from getrusage (microsecond
resolution; wall clocks on a shared machine measure the other jobs). Prints each round and
the medians, and BookSim's median over each routesim median.

usage: bench/booksim_speed.py BOOKSIM CONFIG 'routesim args' RS_BINARY [RS_BINARY ...]
       (env ROUNDS, default 5; REPS, default 11)
example: bench/booksim_speed.py booksim bench/booksim/speed.cfg "run -c bench/booksim/speed.cfg" build/routesim
         (the three cases of docs/PERFORMANCE.md are bench/booksim/speed.cfg, speed1616.cfg
         and speedfly.cfg, in BookSim's syntax: `run -c FILE` runs them on router=iq; the
         router=simple command line of the 8x8 case is in docs/PERFORMANCE.md)
"""
import os
import resource
import statistics
import subprocess
import sys


def cpu_of(argv):
    """CPU seconds (user + system) of one run of argv, its output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if done.returncode not in (0, 255):  # BookSim 2's main returns -1 (255) after a run
        sys.exit(f"{argv[0]}: exit status {done.returncode}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    booksim, config, rs_args, binaries = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4:]
    rounds, reps = int(os.environ.get("ROUNDS", 5)), int(os.environ.get("REPS", 11))
    bs, rs = [], {b: [] for b in binaries}
    for r in range(rounds):
        bs.append(cpu_of([booksim, config]))
        line = f"round {r + 1}: BookSim {bs[-1]:.3f} s"
        for b in binaries:
            rs[b].append(statistics.median(cpu_of([b] + rs_args) for _ in range(reps)))
            line += f", {b} {rs[b][-1]:.4f} s"
        load = os.getloadavg()[0]
        print(f"{line} (load {load:.1f})", flush=True)
    m = statistics.median(bs)
    print(f"BookSim median {m:.3f} s")
    for b in binaries:
        mb = statistics.median(rs[b])
        print(f"{b}: median {mb:.4f} s, BookSim / it {m / mb:.1f}x")


if __name__ == "__main__":
    main()
