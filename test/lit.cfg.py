# -*- Python -*-
# lit configuration for paracc's tests.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "paracc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".pbtxt", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.paracc_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py", "conformance"]

llvm_config.with_system_environment(["HOME", "TMPDIR"])
llvm_config.use_default_substitutions()

tool_dirs = [config.paracc_tools_dir, config.llvm_tools_dir]
tools = ["paracc", "paracc-opt", "paracc-translate", "paracc-run", "not",
         "count", "split-file"]
# The C API's GoogleTest program (built when GoogleTest is installed).
if os.path.exists(os.path.join(config.paracc_tools_dir, "paracc-capi-tests")):
    tools.append("paracc-capi-tests")
    config.available_features.add("capi-tests")
llvm_config.add_tool_substitutions(tools, tool_dirs)
# flatc turns executables into JSON (test/e2e/Inputs/dump_instructions.py).
import shutil
if shutil.which("flatc"):
    config.available_features.add("flatc")
# Also on PATH, so `not` and `split-file` work at the start of a RUN line.
for tool_dir in reversed(tool_dirs):
    llvm_config.with_environment("PATH", tool_dir, append_path=True)

# %python is lit's own interpreter (standard library only); %pyref has numpy,
# onnx and onnxruntime for independent references.
config.substitutions.append(("%pyref", config.python_executable))
config.substitutions.append(
    ("%paracc_bin", os.path.join(config.paracc_tools_dir, "paracc")))
config.substitutions.append(
    ("%paracc_run_bin", os.path.join(config.paracc_tools_dir, "paracc-run")))
config.substitutions.append(("%src_root", config.paracc_src_root))
config.substitutions.append(("%obj_root", config.paracc_obj_root))
config.substitutions.append(("%shared", config.shared_dir))
config.substitutions.append(
    ("%modelgen", config.python_executable + " -m modelgen"))
config.environment["PYTHONPATH"] = os.path.join(config.paracc_src_root,
                                                "scripts")

# A build with AddressSanitizer reserves terabytes of address space: tests
# that limit it (ulimit -v) do not run there.
if "-fsanitize=address" in config.cxx_flags:
    config.available_features.add("asan")

# Tests that need ../shared (the reference models) skip without it.
if os.path.isdir(os.path.join(config.shared_dir, "models")):
    config.available_features.add("shared-models")
if os.path.isdir("/usr/share/libonnx-testdata/data/node"):
    config.available_features.add("onnx-testdata")
# Tests that need the onnx/onnxruntime Python packages (model generation).
try:
    import subprocess
    subprocess.run([config.python_executable, "-c",
                    "import onnx, onnxruntime, numpy"], check=True,
                   capture_output=True)
    config.available_features.add("onnxruntime")
except Exception:
    pass
