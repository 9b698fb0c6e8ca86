"""paracc: compile ONNX models (and torch modules, MLIR graphs) for a device
mesh and run them, through paracc's C API (libparacc-c.so) with ctypes.

    import paracc
    m = paracc.compile("model.onnx", mesh="dp2,tp2")
    out = m.run({"input_ids": ids})        # {"logits": np.ndarray}
    m.explain(), m.save("model.pcx"), paracc.load("model.pcx")

    run = paracc.train("loss.onnx", data="tokens.u16", mesh="dp2",
                       steps=100, batch=4, seq=32, lr=3e-3)
    for record in run:                     # a StepRecord per step
        print(record.step, record.loss)
    run.state_dict()                       # {name: np.ndarray}

    p = paracc.plan("loss.onnx", cluster="16x8:h100", global_batch=512,
                    train=True, batch=8, seq=2048)
    p.chosen["flags"], p.table, p.plot()   # the planner's choice

libparacc-c.so is found on first use: $PARACC_LIBRARY, else the copy
bundled at install time (paracc/_lib/), else ctypes.util.find_library.
"""

from ._capi import (
    ParaccError,
    ParaccImportError,
    ParaccInvalidArgument,
    ParaccMismatch,
    ParaccUnsupported,
    library_path,
)
from ._model import Model, Session, compile, load, load_tensor
from ._plan import Plan, plan
from ._run import train
from ._train import StepRecord, Trainer

__version__ = "0.1.0"

__all__ = [
    "Model",
    "Plan",
    "ParaccError",
    "ParaccImportError",
    "ParaccInvalidArgument",
    "ParaccMismatch",
    "ParaccUnsupported",
    "Session",
    "StepRecord",
    "Trainer",
    "api_version",
    "compile",
    "library_path",
    "load",
    "load_tensor",
    "plan",
    "train",
    "version",
]


def version() -> str:
    """The library's version, e.g. "paracc 0.1 (executable format 2, C API 1)"."""
    from ._capi import decode, lib

    return decode(lib().paracc_version())


def api_version() -> int:
    """The library's C API version (PARACC_C_API_VERSION)."""
    from ._capi import lib

    return int(lib().paracc_api_version())
