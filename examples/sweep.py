"""Example of the Python module routesim: one run's typed metrics, then a small sweep.
Run from the source tree: PYTHONPATH=python python3 examples/sweep.py (after make build)."""
import routesim

r = routesim.run(topology="butterfly", N=1024, traffic="uniform", seed=7)
print("makespan", r["makespan"], "mean latency", r["latency_mean"])
rows = routesim.sweep({"topology": "butterfly", "N": [16, 64, 256], "runs": 3, "seed": 1})
for row in (rows.to_dict("records") if hasattr(rows, "to_dict") else rows):
    print(row["N"], row["makespan_mean"], row["makespan_ci95"])
