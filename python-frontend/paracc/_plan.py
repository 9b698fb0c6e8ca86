"""paracc.plan: the parallel plan of a model for a cluster (`paracc plan`).

    p = paracc.plan("loss.onnx", cluster="16x8:h100", global_batch=512,
                    train=True, batch=8, seq=2048, precision="bf16")
    p.chosen["mesh"], p.chosen["flags"]      # the choice and how to run it
    p.table                                  # the top plans (pandas if there)
    p.plot()                                 # step time against peak memory
    p.save_report("plan.html")               # `paracc plan --report`
"""

from __future__ import annotations

import ctypes
import json
import os
from typing import Any

from ._capi import Options, check, decode, lib
from ._model import _input_shape_pairs
from ._options import training_pairs


class Plan:
    """The planner's answer: `json` (the whole `paracc plan --json`
    object), `text` (its report), `html` (`paracc plan --report`'s page),
    `chosen` (the fastest plan that fits, with its `predicted` numbers) and
    `candidates` (the top plans, fastest first)."""

    def __init__(self, text: str, data: dict, html: str = ""):
        self.text = text
        self.json = data
        self.html = html
        self.candidates: list[dict] = data.get("candidates", [])
        self.chosen: dict = dict(data["plan"], predicted=data["predicted"])

    def __repr__(self) -> str:
        p = self.chosen["predicted"]
        return (f"<paracc.Plan {self.chosen['mesh']}: {p['step_seconds']:.4g} s "
                f"per step, {p['peak_memory_bytes'] / 2**30:.2f} GiB per device>")

    def save_report(self, path: str | os.PathLike) -> None:
        """Writes the HTML report (`paracc plan --report`) to `path`."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html)

    def rows(self) -> list[dict[str, Any]]:
        """One flat dict per candidate: the plan's fields and predictions."""
        rows = []
        for c in self.candidates:
            row = {k: v for k, v in c.items() if k != "predicted"}
            p = c["predicted"]
            for key in ("step_seconds", "tokens_per_second", "tflops_per_gpu",
                        "mfu", "peak_memory_bytes", "bubble"):
                row[key] = p[key]
            rows.append(row)
        return rows

    @property
    def table(self):
        """The candidates as a pandas DataFrame when pandas is installed,
        else as rows()."""
        try:
            import pandas
        except ImportError:
            return self.rows()
        return pandas.DataFrame(self.rows())

    def plot(self, ax=None):
        """The candidates' predicted step time against their peak memory per
        device (matplotlib), the chosen one marked; returns the axes."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 4))
        rows = self.rows()
        ax.scatter([r["peak_memory_bytes"] / 2**30 for r in rows],
                   [r["step_seconds"] for r in rows], label="candidates")
        best = self.chosen["predicted"]
        ax.scatter([best["peak_memory_bytes"] / 2**30], [best["step_seconds"]],
                   marker="*", s=200, label=f"chosen: {self.chosen['mesh']}")
        usable = (self.json["cluster"]["memory_bytes"]
                  - self.json["cluster"]["reserve_bytes"]) / 2**30
        ax.axvline(usable, linestyle="--", color="grey", label="usable memory")
        ax.set_xlabel("peak memory per device (GiB)")
        ax.set_ylabel("predicted step (s)")
        ax.legend()
        return ax


def plan(model: str | os.PathLike, cluster: str = "local",
         global_batch: int | None = None, *, train: bool = False,
         top: int = 10, mesh: str | None = None,
         precision: str | None = None, input_shapes=None, **options) -> Plan:
    """Chooses the parallel plan of the model file `model` for `cluster`
    ("16x8:h100", a .json file, or "local") from its shapes alone (no
    weight is read). `global_batch`: sequences per step (default the
    model's batch). ``train=True`` plans a training step; `options` are the
    training compile's keywords (batch, seq, loss, recompute, zero, ...).
    With `mesh` only that plan is predicted. Raises ParaccError when no
    plan fits (the message names the smallest peak)."""
    pairs: list[tuple[str, Any]] = [("cluster", cluster), ("top", top)]
    if global_batch is not None:
        pairs.append(("global-batch", global_batch))
    if mesh is not None:
        pairs.append(("mesh", mesh))
    if precision is not None:
        pairs.append(("precision", precision))
    pairs += _input_shape_pairs(input_shapes or {})
    if train:
        pairs += training_pairs(**options)
    elif options:
        raise TypeError("paracc.plan: " + ", ".join(f"{k}=" for k in options)
                        + " only apply to a training step (train=True)")
    with Options(pairs) as opts:
        out = ctypes.c_void_p()
        check(lib().paracc_plan_file(os.fsencode(os.fspath(model)), opts,
                                     ctypes.byref(out)))
    L = lib()
    try:
        text = decode(L.paracc_plan_text(out.value))
        data = json.loads(decode(L.paracc_plan_json(out.value)))
        html = decode(L.paracc_plan_html(out.value))
    finally:
        L.paracc_plan_free(out.value)
    return Plan(text, data, html)
