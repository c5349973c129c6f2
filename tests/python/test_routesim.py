"""Tests of the Python module routesim (python/routesim): a run's typed metrics equal the
command line's, a sweep's rows equal `routesim sweep`'s file, topo, and errors raise
routesim.Error with the command line's message and exit status. Run by CTest as
`python3 tests/python/test_routesim.py ROUTESIM_BINARY` with PYTHONPATH=python and
ROUTESIM_LIBRARY set to the build's libroutesim.so."""

import csv
import io
import os
import subprocess
import sys
import tempfile
import unittest

import routesim

RS = sys.argv.pop(1) if len(sys.argv) > 1 else "build/routesim"


def cli(*args, stdin=None):
    return subprocess.run([RS, *args], capture_output=True, text=True, input=stdin)


def cli_row(*args):
    p = cli(*args, "--format", "csv")
    assert p.returncode == 0, p.stderr
    return next(csv.DictReader(io.StringIO(p.stdout)))


class TestRun(unittest.TestCase):
    KEYS = dict(topology="butterfly", N=1024, traffic="uniform", queue_size=2,
                protocol="fifo", seed=7)

    def test_typed_metrics_equal_the_command_line(self):
        r = routesim.run(**self.KEYS)
        row = cli_row("run", *["%s=%s" % kv for kv in self.KEYS.items()])
        self.assertEqual(list(r), list(row))  # same fields, same order
        self.assertIsInstance(r["makespan"], int)
        self.assertIsInstance(r["latency_mean"], float)
        self.assertIsInstance(r["topology"], str)
        self.assertEqual(r["delivered"], 1024)
        for k, v in row.items():
            if isinstance(r[k], float):
                self.assertEqual("%.9g" % r[k], v, k)  # the CLI prints %.9g
            else:
                self.assertEqual(str(r[k]), v, k)

    def test_config_file_and_override(self):
        with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
            f.write("topology = butterfly\nN = 16\ntraffic = bitrev\nqueue_size = 1\n")
        try:
            self.assertEqual(routesim.run(config=f.name)["N"], 16)
            self.assertEqual(routesim.run(config=f.name, N=32)["N"], 32)
        finally:
            os.unlink(f.name)

    def test_analyze(self):
        a = routesim.analyze(topology="butterfly", N=1024, traffic="bitrev")
        self.assertEqual(a["congestion"], 16)


class TestTopo(unittest.TestCase):
    def test_one_row(self):
        t = routesim.topo(topology="butterfly", N=8)
        self.assertEqual(t["nodes"], 32)
        self.assertEqual(t["terminals"], 8)

    def test_fat_tree_levels(self):
        rows = routesim.topo(topology="fat_tree", N=16)
        p = cli("topo", "topology=fat_tree", "N=16", "--format", "csv")
        want = list(csv.DictReader(io.StringIO(p.stdout)))
        self.assertEqual(len(rows), len(want))
        self.assertEqual([str(r["wires"]) for r in rows], [w["wires"] for w in want])


class TestSweep(unittest.TestCase):
    def test_rows_equal_the_command_line(self):
        spec = {"topology": "butterfly", "N": [16, 64], "traffic": "uniform,bitrev",
                "runs": 3, "seed": 11}
        rows = routesim.sweep(spec, jobs=2)
        with tempfile.TemporaryDirectory() as d:
            ini = os.path.join(d, "s.ini")
            with open(ini, "w") as f:
                f.write("topology = butterfly\nN = 16,64\ntraffic = uniform,bitrev\n"
                        "runs = 3\nseed = 11\n")
            p = cli("sweep", "-c", ini, "-o", os.path.join(d, "s.csv"), "-j", "2")
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(d, "s.csv")) as f:
                want = list(csv.DictReader(f))
            if not isinstance(rows, list):  # a pandas DataFrame
                rows = rows.to_dict("records")
            self.assertEqual(len(rows), 4)
            self.assertEqual(len(rows), len(want))
            for got, w in zip(rows, want):
                self.assertEqual(list(got), list(w))
                self.assertEqual(got["makespan_mean"], float(w["makespan_mean"]))
                self.assertEqual(str(got["N"]), w["N"])

    def test_ini_path_and_per_run(self):
        with tempfile.TemporaryDirectory() as d:
            ini = os.path.join(d, "s.ini")
            with open(ini, "w") as f:
                f.write("topology = butterfly\nN = 16\nruns = 4\nseed = 3\n")
            rows = routesim.sweep(ini, per_run=True)
            self.assertEqual(len(rows), 4)


class TestErrors(unittest.TestCase):
    def check(self, fn, cli_args, **keys):
        with self.assertRaises(routesim.Error) as c:
            fn(**keys)
        p = cli(*cli_args)
        self.assertEqual(c.exception.status, p.returncode)
        self.assertEqual("routesim: " + str(c.exception) + "\n", p.stderr)
        self.assertLess(c.exception.code, 0)

    def test_bad_value(self):
        self.check(routesim.run, ["run", "topology=butterfly", "N=1000"],
                   topology="butterfly", N=1000)

    def test_unknown_key(self):
        self.check(routesim.run, ["run", "topology=butterfly", "queue_sise=2"],
                   topology="butterfly", queue_sise=2)

    def test_sweep_error(self):
        with self.assertRaises(routesim.Error) as c:
            routesim.sweep({"topology": "butterfly", "N": 1000})
        self.assertEqual(c.exception.status, 2)
        self.assertIn("power of two", c.exception.message)

    def test_missing_config(self):
        with self.assertRaises(routesim.Error) as c:
            routesim.run(config="/nonexistent/x.ini")
        self.assertEqual(c.exception.status, 2)
        self.assertIn("cannot open '/nonexistent/x.ini'", str(c.exception))


if __name__ == "__main__":
    unittest.main()
