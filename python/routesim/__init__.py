"""routesim from Python: run, analyze, topo and sweep through the shared library
(libroutesim.so) with ctypes; nothing is downloaded or compiled.

    >>> import routesim
    >>> r = routesim.run(topology="butterfly", N=1024, seed=1)
    >>> r["makespan"], r["latency_mean"]          # int, float

run(), analyze() and topo() take keys as keyword arguments (the KEY=VALUE of the command
line) and optionally config= (an INI or BookSim file); they return a dict of typed values
(int, float, str): the parameters, then the metrics. topo() returns one dict, or a list of
dicts (one per level, root first) for a fat-tree's view. sweep() runs an INI file (or a
dict of its keys; nested dicts are [sections]) and returns its rows: a pandas DataFrame
when pandas is installed, else a list of dicts. Errors raise routesim.Error with
routesim's one-line message, its error code and the exit status the command would give.

The library is found through $ROUTESIM_LIBRARY, then next to an installed module
(PREFIX/lib/python3/dist-packages/routesim -> PREFIX/lib), then in the source tree's
build/ (PYTHONPATH=python), then by the system's loader.
"""

import csv
import ctypes
import ctypes.util
import math
import os
import tempfile

__all__ = ["run", "analyze", "topo", "sweep", "Error"]

_INT, _DOUBLE, _STRING = 0, 1, 2  # enum rs_val_type (include/routesim/record.h)


class Error(Exception):
    """A routesim error: message (one line), code (RS_E... number) and status (the exit
    status of the command line: 2 bad input, 3 a resource limit, 1 a failure)."""

    def __init__(self, message, code, status):
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status


class _Err(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("msg", ctypes.c_char * 512)]


def _candidates():
    env = os.environ.get("ROUTESIM_LIBRARY")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "..", "..", "..", "libroutesim.so")  # PREFIX/lib
    yield os.path.join(here, "..", "..", "build", "libroutesim.so")  # source tree
    found = ctypes.util.find_library("routesim")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("routesim: cannot find libroutesim.so (set ROUTESIM_LIBRARY); tried "
                      + ", ".join(tried))


_lib = _load()
_P = ctypes.c_void_p
_S = ctypes.c_size_t
for _name, _res, _args in [
        ("rs_api_exec", ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p,
                                       ctypes.POINTER(ctypes.c_char_p), _S,
                                       ctypes.POINTER(_P), ctypes.POINTER(_Err)]),
        ("rs_api_sweep", ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), _S,
                                        ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p,
                                        ctypes.POINTER(ctypes.c_uint64),
                                        ctypes.POINTER(_Err)]),
        ("rs_api_rows", _S, [_P]),
        ("rs_api_fields", _S, [_P, _S]),
        ("rs_api_name", ctypes.c_char_p, [_P, _S, _S]),
        ("rs_api_type", ctypes.c_int, [_P, _S, _S]),
        ("rs_api_int", ctypes.c_int64, [_P, _S, _S]),
        ("rs_api_double", ctypes.c_double, [_P, _S, _S]),
        ("rs_api_string", ctypes.c_char_p, [_P, _S, _S]),
        ("rs_api_message", ctypes.c_char_p, [_P]),
        ("rs_api_free", None, [_P]),
        ("rs_api_exit_status", ctypes.c_int, [ctypes.c_int])]:
    _f = getattr(_lib, _name)
    _f.restype = _res
    _f.argtypes = _args


def _text(value):
    """A Python value as routesim writes it on the command line."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple)):
        return ",".join(_text(v) for v in value)
    return str(value)


def _args(keys):
    items = [("%s=%s" % (k, _text(v))).encode() for k, v in keys.items()]
    arr = (ctypes.c_char_p * max(len(items), 1))(*items)
    return arr, len(items)


def _raise(rc, err):
    raise Error(err.msg.decode("utf-8", "replace"), rc, _lib.rs_api_exit_status(rc))


def _exec(command, config, keys):
    arr, n = _args(keys)
    err = _Err()
    table = _P()
    cfg = os.fsencode(config) if config is not None else None
    rc = _lib.rs_api_exec(command.encode(), cfg, arr, n, ctypes.byref(table), ctypes.byref(err))
    if rc:
        _raise(rc, err)
    try:
        rows = []
        for r in range(_lib.rs_api_rows(table)):
            row = {}
            for i in range(_lib.rs_api_fields(table, r)):
                name = _lib.rs_api_name(table, r, i).decode()
                t = _lib.rs_api_type(table, r, i)
                if t == _INT:
                    row[name] = _lib.rs_api_int(table, r, i)
                elif t == _DOUBLE:
                    row[name] = _lib.rs_api_double(table, r, i)
                else:
                    row[name] = _lib.rs_api_string(table, r, i).decode("utf-8", "replace")
            rows.append(row)
        message = _lib.rs_api_message(table).decode("utf-8", "replace")
    finally:
        _lib.rs_api_free(table)
    if message and rows:
        rows[0]["deadlock_message"] = message
    return rows


def run(config=None, **keys):
    """Simulate one parameter set (`routesim run`); returns the record as a dict of typed
    values. A deadlocked run returns deadlock=1 and its waiting cycle in
    'deadlock_message'."""
    return _exec("run", config, keys)[0]


def analyze(config=None, **keys):
    """Congestion, dilation and per-level load without simulating (`routesim analyze`)."""
    return _exec("analyze", config, keys)[0]


def topo(config=None, **keys):
    """The size of a network (`routesim topo`): a dict, or a list of dicts (one per level
    of a fat-tree's view, root first)."""
    rows = _exec("topo", config, keys)
    return rows[0] if len(rows) == 1 else rows


def _number(text):
    """A CSV cell as int, float or str (nan and inf included), as routesim wrote it."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def _ini_value(value):
    return _text(value) if not isinstance(value, (list, tuple)) else \
        ",".join(_text(v) for v in value)


def _write_ini(spec, path):
    with open(path, "w") as f:
        for k, v in spec.items():
            if not isinstance(v, dict):
                f.write("%s = %s\n" % (k, _ini_value(v)))
        for section, body in spec.items():
            if isinstance(body, dict):
                f.write("[%s]\n" % section)
                for k, v in body.items():
                    f.write("%s = %s\n" % (k, _ini_value(v)))


def sweep(ini, jobs=0, per_run=False, **keys):
    """Run an experiment grid (`routesim sweep`): ini is an INI file's path or a dict of its
    keys (a list is a list of values; a nested dict is a [section]); keyword arguments
    override its keys. Returns the statistics rows (with per_run=True the per-run rows
    instead): a pandas DataFrame when pandas is installed, else a list of dicts with
    typed values."""
    with tempfile.TemporaryDirectory(prefix="routesim-") as tmp:
        if isinstance(ini, dict):
            path = os.path.join(tmp, "sweep.ini")
            _write_ini(ini, path)
        else:
            path = os.fspath(ini)
        out = os.path.join(tmp, "stats.csv")
        runs = os.path.join(tmp, "runs.csv") if per_run else None
        arr, n = _args(keys)
        err = _Err()
        points = ctypes.c_uint64()
        rc = _lib.rs_api_sweep(os.fsencode(path), arr, n, int(jobs), out.encode(),
                               runs.encode() if runs else None, ctypes.byref(points),
                               ctypes.byref(err))
        if rc:
            _raise(rc, err)
        src = runs if per_run else out
        try:
            import pandas
        except ImportError:
            pandas = None
        if pandas is not None:
            return pandas.read_csv(src)
        with open(src, newline="") as f:
            return [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(f)]
