"""Model.plot_memory: the explain report's memory per rank as a stacked bar
chart (matplotlib is imported here only)."""

from __future__ import annotations

from ._capi import ParaccError, ParaccImportError

# The categories of a training step's "memory" object, bottom to top
# ("arena" and "peak" are totals, drawn as a line).
_STEP_CATEGORIES = [
    ("parameters", "parameters"),
    ("gradients", "gradients"),
    ("optimizer_state", "optimizer state"),
    ("activations_saved", "activations saved"),
    ("workspace", "workspace"),
    ("communication", "communication"),
]


def _unit(largest: float) -> tuple[float, str]:
    for scale, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if largest >= scale:
            return float(scale), name
    return 1.0, "bytes"


def _stage_of_rank(report: dict, num_ranks: int) -> list[int] | None:
    """Each rank's pipeline stage (its place in its "pp" group), or None."""
    for axis in report.get("axes", []):
        if axis.get("name") == "pp":
            stage = [0] * num_ranks
            for group in axis.get("groups", []):
                for position, rank in enumerate(group):
                    if 0 <= rank < num_ranks:
                        stage[rank] = position
            return stage
    return None


def memory_per_rank(report: dict, num_ranks: int | None = None
                    ) -> tuple[list[str], list[list[int]], int | None]:
    """(category labels, bytes[category][rank], peak or None) from an
    explain report.

    A training step's report has a "memory" object (bytes per rank by
    category); an inference program's has parameter_bytes_per_rank and
    activation_peak_bytes_per_rank. Under a pipeline, ranks differ by stage:
    each rank's bar is its stage's memory_bytes (param_bytes, the rest).
    """
    if not report:
        raise ParaccError(
            "paracc: error: this model has no explain report (a loaded "
            "executable has none: compile the model to get one)")
    n = int(num_ranks or report.get("num_ranks") or 1)
    stages = (report.get("pipeline") or {}).get("stages") or []
    stage_of = _stage_of_rank(report, n)
    if stages and stage_of is not None and all(
            0 <= s < len(stages) for s in stage_of):
        params = [int(stages[s].get("param_bytes", 0)) for s in stage_of]
        rest = [max(int(stages[s].get("memory_bytes", 0)) - p, 0)
                for s, p in zip(stage_of, params)]
        label = ("activations, gradients, optimizer state"
                 if "memory" in report else "activations")
        return ["parameters", label], [params, rest], None
    memory = report.get("memory")
    if isinstance(memory, dict):
        labels, values = [], []
        for key, label in _STEP_CATEGORIES:
            if memory.get(key) is not None:
                labels.append(label)
                values.append([int(memory[key])] * n)
        peak = memory.get("peak")
        return labels, values, (int(peak) if peak is not None else None)
    params = report.get("parameter_bytes_per_rank")
    acts = report.get("activation_peak_bytes_per_rank")
    if params is None and acts is None:
        raise ParaccError(
            "paracc: error: the explain report has no memory figures "
            f"(its keys: {', '.join(sorted(report))})")
    return (["parameters", "activations (peak live)"],
            [[int(params or 0)] * n, [int(acts or 0)] * n], None)


def plot_memory(report: dict, ax=None, num_ranks: int | None = None):
    labels, values, peak = memory_per_rank(report, num_ranks)
    # A category that is zero on every rank (an inference pipeline's stages
    # count parameters only) is left out.
    kept = [(l, v) for l, v in zip(labels, values) if any(v)] or \
        list(zip(labels, values))
    labels, values = [l for l, _ in kept], [v for _, v in kept]
    if ax is None:  # a given Axes means matplotlib is there
        try:
            import matplotlib.pyplot as plt
        except ImportError as e:
            raise ParaccImportError(
                "paracc.Model.plot_memory needs matplotlib (pip install "
                "matplotlib)") from e
        _, ax = plt.subplots()
    n = len(values[0]) if values else 0
    totals = [sum(v[r] for v in values) for r in range(n)]
    scale, unit = _unit(max(totals + [peak or 0, 1]))
    ranks = list(range(n))
    bottom = [0.0] * n
    for label, v in zip(labels, values):
        heights = [b / scale for b in v]
        ax.bar(ranks, heights, bottom=bottom, label=label)
        bottom = [b + h for b, h in zip(bottom, heights)]
    if peak is not None:
        ax.axhline(peak / scale, color="black", linestyle="--", linewidth=1,
                   label="predicted peak")
    mesh = " x ".join(f"{a.get('name')}{a.get('size')}"
                      for a in report.get("axes", [])) or "1 rank"
    ax.set_title(f"paracc memory per rank ({mesh})")
    ax.set_xlabel("rank")
    ax.set_ylabel(unit)
    ax.set_xticks(ranks)
    top = max([sum(v[r] for v in values) for r in range(n)] + [peak or 0, 1])
    ax.set_ylim(0, top / scale * 1.3)  # room for the legend above the bars
    ax.legend(loc="upper center", ncol=min(len(labels) + (peak is not None),
                                           3), fontsize="small")
    return ax
