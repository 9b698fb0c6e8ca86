//===- AttentionTest.cu - GPU attention against the CPU kernel --*- C++ -*-===//
//
// A standalone test of launchAttention and launchAttentionGrad (no
// GoogleTest): random q, k, v (and dy, masks) in bf16, f16 and f32 over
// shapes that exercise every kernel (the tensor-core ones for D == Dv in
// {64, 128} in bf16/f16, the TF32 ones for f32 cases launched with TF32
// allowed ("tf32"; D == Dv in {32, 64, 128}, checked at f16's tolerance),
// the SIMT ones otherwise), partial tiles, Sq != Sk,
// causal masking with rows that see no key, broadcast masks with -inf,
// unusual scales, misaligned pointers, sequence-first operands, k and v
// with fewer heads than q (grouped-query attention: "kv-group=G" cases,
// whose reference runs on k and v with each head repeated G times and sums
// dk and dv over each group), and operands the kernels must reject. Every
// case is compared with the CPU reference (runCpuKernel) and prints one
// line; failures print the worst
// elements with their (batch, row, column). Result buffers are prefilled
// with NaN bytes and surrounded by guard bytes, so unwritten elements and
// out-of-bounds writes are caught. The gradient cases ("grad ..." names)
// also hand the kernels an uninitialized (NaN-filled) workspace of
// attentionGradWorkspaceBytes, guard it, and launch twice to check that the
// results are bitwise deterministic (dq only on the paths without atomics:
// the tensor-core backward accumulates dq with f32 atomics by default, so
// its last bits may vary between launches; dk and dv never do).
//
// Where libcudnn.so.9 loads, cuDNN's fused attention runs the shapes it takes
// (CudnnAttention.h) and is what these cases check there; run with
// PARACC_ATTENTION_KERNEL=paracc to check paracc's kernels on every case
// (the "paracc" cases set it for themselves).
//
// Usage: AttentionTest [substring]   runs the cases whose name contains it.
// Exit status: 0 when every case passes, 77 (skipped) without a CUDA device.
//
//===----------------------------------------------------------------------===//

#include "cuda/AttentionKernel.h"

#include "paracc/runtime/DType.h"
#include "paracc/runtime/Kernels.h"
#include "paracc/runtime/Tensor.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace paracc::rt;
using paracc::rt::cuda::DeviceTensor;

namespace {

//===----------------------------------------------------------------------===//
// The launch functions from attributes as an executable stores them: the
// tests write them so, and decode them as the instruction walk does (a
// malformed one fails with the decode's error).
//===----------------------------------------------------------------------===//

Status decodeAttention(OpCode op, const InstrAttrs &raw,
                       AttentionAttrs &typed) {
  OpAttrs a;
  PARACC_RETURN_IF_ERROR(decodeOpAttrs(op, raw, a));
  typed = std::get<AttentionAttrs>(a);
  return Status::ok();
}

Status launchAttentionStored(const InstrAttrs &raw,
                             const std::vector<DeviceTensor> &inputs,
                             const std::vector<DeviceTensor> &outputs,
                             cudaStream_t stream,
                             const cuda::KernelOptions &options = {}) {
  AttentionAttrs typed;
  PARACC_RETURN_IF_ERROR(decodeAttention(OpCode::Attention, raw, typed));
  return cuda::launchAttention(typed, inputs, outputs, stream, options);
}

size_t gradWorkspaceStored(const InstrAttrs &raw,
                           const std::vector<DeviceTensor> &inputs) {
  AttentionAttrs typed;
  if (!decodeAttention(OpCode::AttentionGrad, raw, typed).isOk())
    return 0;
  return cuda::attentionGradWorkspaceBytes(typed, inputs);
}

Status launchAttentionGradStored(const InstrAttrs &raw,
                                 const std::vector<DeviceTensor> &inputs,
                                 const std::vector<DeviceTensor> &outputs,
                                 void *workspace, size_t workspaceBytes,
                                 cudaStream_t stream,
                                 const cuda::KernelOptions &options = {}) {
  AttentionAttrs typed;
  PARACC_RETURN_IF_ERROR(decodeAttention(OpCode::AttentionGrad, raw, typed));
  return cuda::launchAttentionGrad(typed, inputs, outputs, workspace,
                                   workspaceBytes, stream, options);
}

/// Whether cuDNN's fused attention may run the cases (PARACC_ATTENTION_KERNEL
/// unset or "cudnn" when the test starts): paracc's workspace formula is
/// then only a lower bound of attentionGradWorkspaceBytes.
bool cudnnMayRun() {
  static const bool may = [] {
    const char *k = std::getenv("PARACC_ATTENTION_KERNEL");
    return !k || !*k || std::strcmp(k, "cudnn") == 0;
  }();
  return may;
}

/// Sets an environment variable (when `on`) for one launch, then restores
/// what the test was started with.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value, bool on) : name(name), on(on) {
    if (!on)
      return;
    if (const char *old = std::getenv(name))
      saved = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (!on)
      return;
    if (saved)
      setenv(name, saved->c_str(), 1);
    else
      unsetenv(name);
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
  const char *name;
  bool on;
  std::optional<std::string> saved;
};

//===----------------------------------------------------------------------===//
// Cases.
//===----------------------------------------------------------------------===//

enum class MaskFill {
  Random,   ///< Finite values in [-2, 1).
  WithInf,  ///< 20% -inf, the rest finite.
  FullRows, ///< Every third mask row entirely -inf.
};

struct Case {
  DType dtype = DType::BF16;
  Shape lead;
  int64_t sq = 0, sk = 0, d = 0, dv = 0;
  bool causal = false;
  /// With causal: a sliding window of this many keys (0: none).
  int64_t window = 0;
  std::optional<Shape> maskShape;
  MaskFill maskFill = MaskFill::Random;
  /// 0: 1/sqrt(d).
  double scale = 0;
  /// q and k are uniform in [-range, range).
  float range = 2.f;
  /// Run with PARACC_ATTENTION_KERNEL=generic.
  bool forceGeneric = false;
  /// Gradient cases: run with PARACC_ATTENTION_BWD=recompute (the
  /// tensor-core backward without the atomic dq accumulator).
  bool recompute = false;
  /// Offset every device pointer by this many elements (breaks the
  /// 16-byte alignment the tensor-core kernel needs).
  int misalign = 0;
  /// Give the GPU sequence-first operands ([lead..., S, H, D], H the last
  /// lead dim); the reference runs on the usual layout.
  bool sequenceFirst = false;
  /// Saved statistics (ints[3] = 1): the forward also returns each row's
  /// log-sum-exp, checked against the CPU's; the backward is given the
  /// CPU forward's result and statistics.
  bool saveStats = false;
  /// The start operand (context parallelism: a block of queries placed at
  /// this key position; queryStart = 1), or none.
  std::optional<int64_t> start;
  /// Gradient cases with saved statistics: they are a larger attention's
  /// (ring attention's block of keys, keyBlock = 1): the saved result is
  /// random and the statistics exceed the case's own (finite where its rows
  /// see no key), so only a backward that uses them matches the reference.
  bool keyBlock = false;
  /// The start is marked within [0, Sk - Sq] (startWithinKeys): cuDNN runs
  /// it through its padding mask where it may.
  bool within = false;
  /// Launch with TF32 allowed (KernelOptions::allowTf32): f32 cases of the
  /// TF32 kernels' head dims run on the tensor cores (AttentionTf32.h).
  bool tf32 = false;
  /// Grouped-query attention: k and v (and dk and dv) have 1 / kvGroup of
  /// q's heads, the last lead dim (H of the sequence-first layout too).
  int64_t kvGroup = 1;
  /// Run with PARACC_ATTENTION_KERNEL=paracc: paracc's kernels even where
  /// cuDNN would take the case.
  bool paracc = false;
};

std::string shapeStr(const Shape &s) { return shapeToString(s); }

std::string caseName(const Case &c) {
  std::ostringstream os;
  os << dtypeName(c.dtype) << " lead=" << shapeStr(c.lead) << " sq=" << c.sq
     << " sk=" << c.sk << " d=" << c.d << " dv=" << c.dv
     << (c.causal ? " causal" : "");
  if (c.window)
    os << " window=" << c.window;
  if (c.maskShape) {
    os << " mask=" << shapeStr(*c.maskShape);
    os << (c.maskFill == MaskFill::Random    ? ":rand"
           : c.maskFill == MaskFill::WithInf ? ":inf"
                                             : ":fullrows");
  }
  if (c.scale != 0)
    os << " scale=" << c.scale;
  if (c.range != 2.f)
    os << " range=" << c.range;
  if (c.forceGeneric)
    os << " forced-generic";
  if (c.recompute)
    os << " recompute";
  if (c.misalign)
    os << " misalign=" << c.misalign;
  if (c.sequenceFirst)
    os << " sequence-first";
  if (c.saveStats)
    os << " saved-stats";
  if (c.start)
    os << " start=" << *c.start;
  if (c.keyBlock)
    os << " key-block";
  if (c.within)
    os << " within";
  if (c.tf32)
    os << " tf32";
  if (c.kvGroup != 1)
    os << " kv-group=" << c.kvGroup;
  if (c.paracc)
    os << " paracc";
  return os.str();
}

/// The lead dims of k and v (and dk and dv): the last one (the heads)
/// divided by kvGroup.
Shape kvLead(const Case &c) {
  Shape lead = c.lead;
  if (c.kvGroup != 1)
    lead.back() /= c.kvGroup;
  return lead;
}

/// Whether the TF32 kernels take the case (AttentionTf32.h): f32 with TF32
/// allowed, D == Dv in {32, 64, 128}, aligned operands.
bool tf32Shape(const Case &c) {
  return c.tf32 && c.dtype == DType::F32 && c.d == c.dv &&
         (c.d == 32 || c.d == 64 || c.d == 128) && !c.misalign &&
         !c.forceGeneric;
}

/// The kernel launchAttention should pick (documented rule).
const char *expectedPath(const Case &c) {
  if (c.sq == 0 || c.sk == 0)
    return "no kernel";
  if (tf32Shape(c))
    return "tf32";
  const bool tc = (c.dtype == DType::BF16 || c.dtype == DType::F16) &&
                  c.d == c.dv && (c.d == 64 || c.d == 128) && !c.misalign &&
                  !c.forceGeneric;
  return tc ? "tensorcore" : "generic";
}

/// The TF32 cases (f32 with TF32 allowed, AttentionTf32.h): the three head
/// dims, partial blocks, Sq != Sk (rows that see no key), masks, windows,
/// sequence-first operands, the start operand; the SIMT kernels where the
/// TF32 ones do not take the operands (head dim 80, misaligned). Gradient
/// cases get the forward's saved statistics (the TF32 backward needs them),
/// and one without them (the SIMT kernels).
void addTf32Cases(std::vector<Case> &cases, bool grad) {
  auto add = [&](Case c) { cases.push_back(c); };
  auto tf = [&](Shape lead, int64_t sq, int64_t sk, int64_t d, bool causal) {
    Case c;
    c.dtype = DType::F32;
    c.lead = std::move(lead);
    c.sq = sq;
    c.sk = sk;
    c.d = c.dv = d;
    c.causal = causal;
    c.tf32 = true;
    c.saveStats = grad;
    return c;
  };
  for (bool causal : {false, true}) {
    add(tf({2, 3}, 64, 64, 64, causal));
    add(tf({2, 2}, 129, 129, 64, causal));
    add(tf({2, 2}, 17, 17, 128, causal));
    add(tf({1, 3}, 300, 300, 128, causal));
    add(tf({2}, 64, 129, 32, causal));
    add(tf({2}, 129, 64, 128, causal));
    add(tf({1, 2}, 1024, 1024, 64, causal));
  }
  Case c = tf({2, 3}, 64, 200, 128, true);
  c.maskShape = Shape{2, 1, 64, 200};
  c.maskFill = MaskFill::WithInf;
  add(c);
  c = tf({2, 3}, 65, 65, 64, true);
  c.maskShape = Shape{2, 3, 65, 65};
  c.maskFill = MaskFill::FullRows;
  add(c);
  c = tf({2, 3}, 100, 100, 32, false);
  c.maskShape = Shape{1, 100};
  c.maskFill = MaskFill::WithInf;
  add(c);
  for (int64_t window : {1, 5, 100}) {
    c = tf({2, 2}, 257, 257, 64, true);
    c.window = window;
    add(c);
  }
  c = tf({2, 4}, 129, 129, 64, true);
  c.sequenceFirst = true;
  add(c);
  c = tf({2, 4}, 100, 300, 128, true);
  c.sequenceFirst = true;
  c.window = 70;
  add(c);
  c = tf({2, 2}, 128, 512, 64, true);
  c.start = 256;
  add(c);
  c = tf({2, 2}, 129, 129, 64, true);
  c.scale = -0.125;
  add(c);
  c = tf({2, 2}, 65, 65, 80, true); // SIMT.
  add(c);
  c = tf({2, 2}, 65, 65, 64, true);
  c.misalign = 1; // SIMT.
  add(c);
  if (grad) {
    c = tf({2, 2}, 129, 129, 64, true);
    c.saveStats = false; // No statistics: the SIMT kernels.
    add(c);
  }
}

/// Grouped-query attention (kvGroup > 1; 8 query heads, group 4 or 8, the
/// latter multi-query: one kv head): the tensor-core shapes cuDNN also
/// takes (both head dims, causal, both layouts, saved statistics or not),
/// each also with PARACC_ATTENTION_KERNEL=paracc (paracc's tensor-core
/// kernels where cuDNN loads); the SIMT kernels (f32, unequal head dims,
/// forced), f16, TF32, masks over q's heads, partial tiles, Sq != Sk, a
/// window, misaligned pointers, three lead dims, rank 3, the start operand
/// (within or not); for the gradient the recompute path and blocks of a
/// ring attention's keys.
void addGqaCases(std::vector<Case> &cases, bool grad) {
  auto add = [&](Case c) { cases.push_back(c); };
  auto mk = [](DType dt, Shape lead, int64_t sq, int64_t sk, int64_t d,
               int64_t dv, bool causal, int64_t group) {
    Case c;
    c.dtype = dt;
    c.lead = std::move(lead);
    c.sq = sq;
    c.sk = sk;
    c.d = d;
    c.dv = dv;
    c.causal = causal;
    c.kvGroup = group;
    return c;
  };
  const DType bf = DType::BF16, f16 = DType::F16, f32 = DType::F32;
  for (int64_t group : {4, 8})
    for (int64_t d : {64, 128})
      for (bool sequenceFirst : {false, true})
        for (bool saveStats : {false, true})
          for (bool paracc : {false, true}) {
            Case c = mk(bf, {2, 8}, 256, 256, d, d, true, group);
            c.sequenceFirst = sequenceFirst;
            c.saveStats = saveStats;
            c.paracc = paracc;
            add(c);
          }
  for (int64_t group : {2, 8})
    for (bool paracc : {false, true}) {
      Case c = mk(bf, {2, 8}, 129, 129, 64, 64, false, group);
      c.paracc = paracc;
      add(c);
    }
  // Partial tiles, Sq != Sk both ways (causal with Sq > Sk: rows that see
  // no key), f16, both layouts.
  for (bool paracc : {false, true}) {
    Case c = mk(bf, {2, 4}, 100, 100, 64, 64, true, 4);
    c.paracc = paracc;
    add(c);
    c.sequenceFirst = true;
    add(c);
    c = mk(bf, {2, 4}, 64, 200, 128, 128, true, 2);
    c.paracc = paracc;
    add(c);
    c = mk(bf, {2, 4}, 200, 64, 64, 64, true, 4);
    c.paracc = paracc;
    add(c);
    c = mk(f16, {2, 4}, 100, 200, 128, 128, true, 2);
    c.paracc = paracc;
    add(c);
    c = mk(f16, {2, 8}, 129, 129, 64, 64, false, 8);
    c.sequenceFirst = true;
    c.paracc = paracc;
    add(c);
  }
  // The SIMT kernels: f32, unequal and odd head dims, forced on the
  // tensor-core shapes, misaligned.
  for (bool sequenceFirst : {false, true}) {
    Case c = mk(f32, {2, 4}, 129, 129, 64, 64, true, 2);
    c.sequenceFirst = sequenceFirst;
    add(c);
    c = mk(f32, {2, 4}, 100, 150, 40, 24, false, 4);
    c.sequenceFirst = sequenceFirst;
    add(c);
    c = mk(bf, {2, 4}, 100, 70, 64, 32, true, 4);
    c.sequenceFirst = sequenceFirst;
    add(c);
    c = mk(bf, {2, 8}, 129, 129, 64, 64, true, 4);
    c.sequenceFirst = sequenceFirst;
    c.forceGeneric = true;
    add(c);
    c = mk(bf, {2, 8}, 100, 100, 128, 128, true, 8);
    c.sequenceFirst = sequenceFirst;
    c.forceGeneric = true;
    c.saveStats = true;
    add(c);
  }
  {
    Case c = mk(bf, {2, 4}, 65, 65, 64, 64, true, 2);
    c.misalign = 1;
    add(c);
  }
  // TF32 (f32 with TF32 allowed; the backward needs saved statistics).
  for (bool sequenceFirst : {false, true}) {
    Case c = mk(f32, {2, 4}, 129, 129, 64, 64, true, 4);
    c.tf32 = true;
    c.saveStats = grad;
    c.sequenceFirst = sequenceFirst;
    add(c);
    c = mk(f32, {2, 8}, 100, 100, 128, 128, false, 8);
    c.tf32 = true;
    c.saveStats = grad;
    c.sequenceFirst = sequenceFirst;
    add(c);
  }
  // Masks broadcast over q's heads: per head with full -inf rows, over the
  // batch, key padding; a sliding window.
  for (DType dt : {bf, f32}) {
    const int64_t d = dt == f32 ? 40 : 64;
    Case c = mk(dt, {2, 4}, 65, 65, d, d, true, 2);
    c.maskShape = Shape{2, 4, 65, 65};
    c.maskFill = MaskFill::FullRows;
    add(c);
    c = mk(dt, {2, 4}, 100, 200, 128, 128, true, 4);
    c.maskShape = Shape{2, 1, 100, 200};
    c.maskFill = MaskFill::WithInf;
    add(c);
    c = mk(dt, {2, 4}, 100, 100, d, d, false, 4);
    c.maskShape = Shape{1, 100};
    c.maskFill = MaskFill::WithInf;
    c.sequenceFirst = true;
    add(c);
    c = mk(dt, {2, 4}, 200, 200, 64, 64, true, 2);
    c.window = 33;
    add(c);
  }
  // Three lead dims; rank 3 (one batch of heads); 1024 rows (forward
  // only: the CPU backward would take long).
  add(mk(bf, {2, 2, 4}, 129, 129, 64, 64, true, 2));
  add(mk(bf, {8}, 129, 129, 128, 128, true, 8));
  if (!grad) {
    Case c = mk(bf, {1, 8}, 1024, 1024, 64, 64, true, 4);
    c.sequenceFirst = true;
    add(c);
    c.paracc = true;
    add(c);
  }
  // The start operand: paracc's kernels, and cuDNN's padding mask when
  // marked within [0, Sk - Sq]; sequence-first.
  for (bool sequenceFirst : {false, true}) {
    Case c = mk(bf, {2, 4}, 128, 512, 64, 64, true, 2);
    c.start = 256;
    c.sequenceFirst = sequenceFirst;
    add(c);
    c.within = true;
    add(c);
    c.within = false;
    c.start = 96;
    c.forceGeneric = true;
    add(c);
  }
  if (grad) {
    // The tensor-core backward without atomics.
    Case c = mk(bf, {2, 4}, 200, 200, 64, 64, true, 4);
    c.recompute = true;
    add(c);
    c = mk(f16, {2, 8}, 129, 129, 128, 128, true, 8);
    c.sequenceFirst = true;
    c.recompute = true;
    add(c);
    // Ring attention's blocks of keys (keyBlock: the saved statistics
    // are a larger attention's): before, on and after the diagonal.
    for (int64_t start : {int64_t(256), int64_t(0), int64_t(-64)}) {
      c = mk(bf, {2, 4}, 128, 128, 64, 64, true, 2);
      c.start = start;
      c.saveStats = true;
      c.keyBlock = true;
      add(c);
    }
    c = mk(f16, {2, 8}, 128, 128, 128, 128, true, 8);
    c.start = 64;
    c.saveStats = true;
    c.keyBlock = true;
    c.sequenceFirst = true;
    add(c);
  }
}

std::vector<Case> makeCases() {
  std::vector<Case> cases;
  auto add = [&](Case c) { cases.push_back(c); };
  auto mk = [](DType dt, Shape lead, int64_t sq, int64_t sk, int64_t d,
               int64_t dv, bool causal) {
    Case c;
    c.dtype = dt;
    c.lead = std::move(lead);
    c.sq = sq;
    c.sk = sk;
    c.d = d;
    c.dv = dv;
    c.causal = causal;
    return c;
  };
  for (DType dt : {DType::BF16, DType::F16}) {
    // Tensor-core kernel: square shapes, partial tiles, both head dims.
    for (bool causal : {false, true}) {
      add(mk(dt, {2, 3}, 64, 64, 64, 64, causal));
      add(mk(dt, {2, 3}, 1, 1, 64, 64, causal));
      add(mk(dt, {2, 2}, 17, 17, 128, 128, causal));
      add(mk(dt, {2, 2}, 129, 129, 64, 64, causal));
      add(mk(dt, {1, 3}, 129, 129, 128, 128, causal));
      add(mk(dt, {1, 2}, 1024, 1024, 64, 64, causal));
      add(mk(dt, {1, 2}, 1024, 1024, 128, 128, causal));
      // Sq != Sk (causal with Sq > Sk: the first rows see no key).
      add(mk(dt, {2}, 64, 129, 64, 64, causal));
      add(mk(dt, {2}, 129, 64, 128, 128, causal));
      add(mk(dt, {2}, 17, 300, 128, 128, causal));
      add(mk(dt, {2}, 300, 17, 64, 64, causal));
    }
    add(mk(dt, {2}, 1, 1024, 64, 64, true)); // One decoding step.
    add(mk(dt, {2}, 1, 1000, 128, 128, false));
    // Masks, every broadcast pattern.
    {
      Case c = mk(dt, {2, 3}, 129, 129, 64, 64, false);
      c.maskShape = Shape{129, 129};
      add(c);
      c = mk(dt, {2, 3}, 64, 200, 128, 128, true);
      c.maskShape = Shape{2, 1, 64, 200};
      c.maskFill = MaskFill::WithInf;
      add(c);
      c = mk(dt, {2, 3}, 100, 100, 64, 64, false);
      c.maskShape = Shape{1, 100}; // Key padding.
      c.maskFill = MaskFill::WithInf;
      add(c);
      c = mk(dt, {2, 3}, 100, 70, 64, 64, false);
      c.maskShape = Shape{100, 1};
      add(c);
      c = mk(dt, {2, 3}, 65, 65, 64, 64, true);
      c.maskShape = Shape{2, 3, 65, 65};
      c.maskFill = MaskFill::FullRows;
      add(c);
      c = mk(dt, {2, 3}, 33, 33, 128, 128, false);
      c.maskShape = Shape{33};
      add(c);
      c = mk(dt, {2, 2, 2}, 65, 65, 64, 64, false);
      c.maskShape = Shape{2, 1, 2, 65, 65}; // Leading dims that do not merge.
      c.maskFill = MaskFill::WithInf;
      add(c);
    }
    // Scales: a sharp softmax, a negative scale.
    {
      Case c = mk(dt, {2, 2}, 129, 129, 64, 64, false);
      c.scale = 0.5;
      c.range = 3.f;
      add(c);
      c = mk(dt, {2, 2}, 129, 129, 128, 128, true);
      c.scale = -0.125;
      add(c);
    }
    // The SIMT kernel on tensor-core shapes, forced and through misalignment.
    {
      Case c = mk(dt, {2, 2}, 129, 129, 64, 64, true);
      c.forceGeneric = true;
      add(c);
      c = mk(dt, {2, 3}, 64, 200, 128, 128, true);
      c.maskShape = Shape{2, 1, 64, 200};
      c.maskFill = MaskFill::WithInf;
      c.forceGeneric = true;
      add(c);
      c = mk(dt, {2, 2}, 65, 65, 64, 64, true);
      c.misalign = 1;
      add(c);
    }
    // The SIMT kernel for other head dims.
    add(mk(dt, {2, 2}, 129, 129, 80, 80, false));
    add(mk(dt, {2, 2}, 129, 129, 80, 80, true));
    add(mk(dt, {2, 2}, 100, 60, 96, 64, true));
    add(mk(dt, {1, 2}, 17, 17, 256, 256, false));
    add(mk(dt, {2}, 64, 64, 256, 128, false));
    add(mk(dt, {1, 2}, 1024, 1024, 96, 96, true));
    {
      Case c = mk(dt, {2}, 33, 40, 17, 33, true);
      c.maskShape = Shape{33, 40};
      c.maskFill = MaskFill::WithInf;
      add(c);
    }
  }
  // f32 (the SIMT kernel).
  const DType f32 = DType::F32;
  for (bool causal : {false, true}) {
    add(mk(f32, {2, 3}, 64, 64, 64, 64, causal));
    add(mk(f32, {2, 2}, 129, 129, 64, 64, causal));
    add(mk(f32, {2, 2}, 17, 17, 128, 128, causal));
  }
  add(mk(f32, {2, 2}, 1, 1, 64, 64, false));
  add(mk(f32, {1, 2}, 1024, 1024, 64, 64, true));
  add(mk(f32, {2}, 129, 64, 128, 128, true));
  add(mk(f32, {2, 2}, 100, 100, 256, 256, false));
  add(mk(f32, {2}, 50, 50, 1, 1, true));
  {
    Case c = mk(f32, {2, 3}, 64, 129, 80, 80, false);
    c.maskShape = Shape{2, 1, 64, 129};
    c.maskFill = MaskFill::WithInf;
    add(c);
    c = mk(f32, {2, 3}, 65, 65, 64, 64, true);
    c.maskShape = Shape{2, 3, 65, 65};
    c.maskFill = MaskFill::FullRows;
    add(c);
  }
  // Sliding windows: both kernels, windows narrower and wider than a tile,
  // Sq < Sk, with a key-padding mask, sequence-first.
  for (DType dt : {DType::BF16, DType::F16, DType::F32}) {
    const int64_t d = dt == DType::F32 ? 40 : 64;
    for (int64_t window : {1, 5, 100, 300}) {
      Case c = mk(dt, {2, 2}, 257, 257, d, d, true);
      c.window = window;
      add(c);
    }
    Case c = mk(dt, {2}, 100, 300, 128, 128, true);
    c.window = 70;
    add(c);
    c = mk(dt, {2, 3}, 129, 129, d, d, true);
    c.window = 33;
    c.maskShape = Shape{2, 1, 1, 129};
    c.maskFill = MaskFill::WithInf;
    add(c);
    c = mk(dt, {2, 4}, 129, 129, 64, 64, true);
    c.window = 17;
    c.sequenceFirst = true;
    add(c);
  }
  // Sequence-first operands: both kernels, masks, Sq != Sk.
  for (DType dt : {DType::BF16, DType::F16, DType::F32})
    for (bool causal : {false, true}) {
      Case c = mk(dt, {2, 4}, 129, 129, 64, 64, causal);
      c.sequenceFirst = true;
      add(c);
      c = mk(dt, {3}, 64, 200, 128, 128, causal);
      c.sequenceFirst = true;
      add(c);
      c = mk(dt, {2, 3}, 65, 65, 80, 48, causal);
      c.sequenceFirst = true;
      c.maskShape = Shape{2, 3, 65, 65};
      c.maskFill = MaskFill::FullRows;
      add(c);
      c = mk(dt, {2, 2}, 100, 100, 64, 64, causal);
      c.sequenceFirst = true;
      c.maskShape = Shape{2, 1, 1, 100};
      c.maskFill = MaskFill::WithInf;
      add(c);
      c = mk(dt, {1, 8}, 1024, 1024, 64, 64, causal);
      c.sequenceFirst = true;
      c.forceGeneric = dt != DType::F32 && causal;
      add(c);
    }
  // Degenerate shapes.
  add(mk(DType::BF16, {}, 129, 129, 64, 64, true)); // Rank 2: no lead dims.
  add(mk(DType::BF16, {2}, 4, 0, 64, 64, false));   // No keys: zeros.
  add(mk(DType::BF16, {2}, 0, 8, 64, 64, false));   // No queries.
  // Saved statistics (a second result): cuDNN's shapes, each kernel of
  // paracc's, rows without a visible key (-inf), no keys at all.
  auto saved = [&](Case c) {
    c.saveStats = true;
    add(c);
  };
  for (bool causal : {false, true}) {
    saved(mk(DType::BF16, {2, 4}, 256, 256, 64, 64, causal));
    saved(mk(DType::F16, {2, 3}, 129, 129, 128, 128, causal));
    saved(mk(DType::F32, {2, 3}, 100, 150, 40, 24, causal));
    Case c = mk(DType::BF16, {2, 2}, 129, 129, 64, 64, causal);
    c.forceGeneric = true;
    saved(c);
    c = mk(DType::BF16, {2, 4}, 200, 200, 128, 128, causal);
    c.sequenceFirst = true;
    saved(c);
    c = mk(DType::BF16, {2, 3}, 65, 65, 64, 64, causal);
    c.maskShape = Shape{2, 3, 65, 65};
    c.maskFill = MaskFill::FullRows;
    saved(c);
  }
  saved(mk(DType::BF16, {2}, 129, 64, 128, 128, true)); // First rows see none.
  {
    Case c = mk(DType::BF16, {2, 2}, 200, 200, 64, 64, true);
    c.window = 7;
    saved(c);
    c = mk(DType::BF16, {2, 2}, 65, 65, 64, 64, true);
    c.misalign = 1;
    saved(c);
  }
  saved(mk(DType::BF16, {2}, 4, 0, 64, 64, false)); // No keys: -inf.
  // A block of queries placed among the keys by the start operand (context
  // parallelism): the middle of the sequence, its first and its last block
  // (the default diagonal), with a window and a padding mask, sequence
  // first, and on the SIMT kernel.
  for (DType dt : {DType::BF16, DType::F32}) {
    for (int64_t start : {int64_t(0), int64_t(256), int64_t(768)}) {
      Case c = mk(dt, {2, 2}, 256, 1024, 64, 64, true);
      c.start = start;
      add(c);
      c.within = true;
      add(c);
    }
    Case c = mk(dt, {1, 2}, 129, 512, 128, 128, true);
    c.start = 200;
    add(c);
    c.within = true;
    add(c);
    c.within = false;
    c = mk(dt, {2, 2}, 128, 512, 64, 64, true);
    c.start = 130;
    c.window = 100;
    add(c);
    c = mk(dt, {2, 2}, 128, 512, 64, 64, true);
    c.start = 64;
    c.maskShape = Shape{2, 1, 1, 512};
    c.maskFill = MaskFill::WithInf;
    add(c);
    c = mk(dt, {2, 4}, 100, 400, 64, 64, true);
    c.start = 150;
    c.sequenceFirst = true;
    add(c);
    c.within = true;
    add(c);
    c.within = false;
    c = mk(dt, {2, 2}, 96, 384, 64, 64, true);
    c.start = 96;
    c.forceGeneric = true;
    add(c);
  }
  addTf32Cases(cases, /*grad=*/false);
  addGqaCases(cases, /*grad=*/false);
  return cases;
}

//===----------------------------------------------------------------------===//
// Host data.
//===----------------------------------------------------------------------===//

/// splitmix64: deterministic per case.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi).
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * float(next() >> 40) * (1.f / 16777216.f);
  }
};

void setValue(Tensor &t, int64_t i, float x) {
  switch (t.dtype()) {
  case DType::F32:
    t.as<float>()[i] = x;
    break;
  case DType::BF16:
    t.as<BFloat16>()[i] = BFloat16(x);
    break;
  case DType::F16:
    t.as<Half>()[i] = Half(x);
    break;
  default:
    std::abort();
  }
}

double getValue(const void *data, DType dt, int64_t i) {
  switch (dt) {
  case DType::F32:
    return static_cast<const float *>(data)[i];
  case DType::BF16:
    return float(static_cast<const BFloat16 *>(data)[i]);
  case DType::F16:
    return float(static_cast<const Half *>(data)[i]);
  default:
    std::abort();
  }
}

bool allocate(DType dt, const Shape &shape, Tensor &t) {
  StatusOr<Tensor> r = Tensor::allocate(dt, shape);
  if (!r.isOk()) {
    std::printf("  host allocation failed: %s\n", r.status().message().c_str());
    return false;
  }
  t = std::move(*r);
  return true;
}

//===----------------------------------------------------------------------===//
// Device buffers.
//===----------------------------------------------------------------------===//

/// Bytes of 0xFF around the output (and after every input).
constexpr size_t kGuardBytes = 256;

/// Set when the CUDA context is unusable (a kernel fault): later cases
/// cannot run.
bool gContextLost = false;

bool cudaCheck(cudaError_t err, const char *what) {
  if (err == cudaSuccess)
    return true;
  std::printf("  CUDA error in %s: %s (%s)\n", what, cudaGetErrorName(err),
              cudaGetErrorString(err));
  if (err == cudaErrorIllegalAddress || err == cudaErrorLaunchFailure ||
      err == cudaErrorMisalignedAddress || err == cudaErrorIllegalInstruction ||
      err == cudaErrorHardwareStackError || err == cudaErrorLaunchTimeout ||
      err == cudaErrorAssert)
    gContextLost = true;
  return false;
}

/// A device allocation of `bytes` at element offset `misalign`, with guard
/// bytes on both sides, all initially 0xFF.
struct DeviceBuffer {
  unsigned char *base = nullptr;
  size_t front = 0, bytes = 0, total = 0;
  void *ptr() const { return base + front; }
  bool init(size_t nBytes, size_t misalignBytes) {
    front = kGuardBytes + misalignBytes;
    bytes = nBytes;
    total = front + bytes + kGuardBytes;
    void *p = nullptr;
    if (!cudaCheck(cudaMalloc(&p, total), "cudaMalloc"))
      return false;
    base = static_cast<unsigned char *>(p);
    return cudaCheck(cudaMemset(base, 0xFF, total), "cudaMemset");
  }
  bool upload(const void *src) {
    return bytes == 0 ||
           cudaCheck(cudaMemcpy(ptr(), src, bytes, cudaMemcpyHostToDevice),
                     "cudaMemcpy to device");
  }
  ~DeviceBuffer() {
    if (base)
      cudaFree(base);
  }
};

//===----------------------------------------------------------------------===//
// Running one case.
//===----------------------------------------------------------------------===//

/// Relative tolerance (scaled by |ref| + rms(ref)) per element type.
double tolerance(DType dt) {
  switch (dt) {
  case DType::BF16:
    return 2e-2;
  case DType::F16:
    return 4e-3;
  default:
    return 1e-4;
  }
}

void fillMask(Tensor &m, MaskFill fill, Rng &rng) {
  const Shape &s = m.shape();
  const int64_t last = s.empty() ? 1 : s.back();
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t i = 0; i < m.numElements(); ++i) {
    float x = rng.uniform(-2.f, 1.f);
    if (fill == MaskFill::WithInf && rng.uniform(0.f, 1.f) < 0.2f)
      x = -inf;
    if (fill == MaskFill::FullRows && (i / last) % 3 == 1)
      x = -inf;
    setValue(m, i, x);
  }
}

/// [outer, a, b, x] -> [outer, b, a, x] (es-byte elements).
std::vector<unsigned char> swapMiddleDims(const void *src, size_t es,
                                          int64_t outer, int64_t a, int64_t b,
                                          int64_t x) {
  std::vector<unsigned char> dst(size_t(outer * a * b * x) * es);
  const auto *in = static_cast<const unsigned char *>(src);
  const size_t row = size_t(x) * es;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < a; ++i)
      for (int64_t j = 0; j < b; ++j)
        std::memcpy(dst.data() + ((o * b + j) * a + i) * row,
                    in + ((o * a + i) * b + j) * row, row);
  return dst;
}

/// The sequence-first shape of a [lead..., H, S, X] shape.
Shape sequenceFirstShape(const Shape &s) {
  Shape t = s;
  std::swap(t[t.size() - 3], t[t.size() - 2]);
  return t;
}

/// Grouped-query attention's reference operand: `kv` ([lead..., Hkv, S, X])
/// with each head repeated `group` times, shaped `shape` ([lead..., Hkv
/// group, S, X]), so that query head h reads kv head h / group.
bool repeatHeads(const Tensor &kv, int64_t group, const Shape &shape,
                 Tensor &out) {
  if (!allocate(kv.dtype(), shape, out))
    return false;
  const int64_t s = shape[shape.size() - 2], x = shape.back();
  const size_t head = size_t(s * x) * dtypeSize(kv.dtype());
  const int64_t kvHeads = kv.numElements() / std::max<int64_t>(s * x, 1);
  const auto *src = static_cast<const unsigned char *>(kv.data());
  auto *dst = static_cast<unsigned char *>(out.data());
  for (int64_t h = 0; h < kvHeads; ++h)
    for (int64_t g = 0; g < group; ++g)
      std::memcpy(dst + size_t(h * group + g) * head, src + size_t(h) * head,
                  head);
  return true;
}

/// The reverse for gradients: out[..., hk, :, :] = the sum over g of
/// full[..., hk group + g, :, :] (in double, rounded once), `out` already
/// shaped [lead..., Hkv, S, X].
void sumHeadGroups(const Tensor &full, int64_t group, Tensor &out) {
  const Shape &shape = out.shape();
  const int64_t head = shape[shape.size() - 2] * shape.back();
  for (int64_t i = 0; i < out.numElements(); ++i) {
    const int64_t h = i / head, e = i - h * head;
    double sum = 0;
    for (int64_t g = 0; g < group; ++g)
      sum += getValue(full.data(), full.dtype(), (h * group + g) * head + e);
    setValue(out, i, float(sum));
  }
}

/// The reference's k and v of a grouped-query case (kvGroup != 1): each
/// head repeated kvGroup times into `kFull` and `vFull`; nothing otherwise.
bool kvReference(const Case &c, const Tensor &k, const Tensor &v, Tensor &kFull,
                 Tensor &vFull) {
  if (c.kvGroup == 1)
    return true;
  Shape kFullShape = c.lead, vFullShape = c.lead;
  kFullShape.insert(kFullShape.end(), {c.sk, c.d});
  vFullShape.insert(vFullShape.end(), {c.sk, c.dv});
  return repeatHeads(k, c.kvGroup, kFullShape, kFull) &&
         repeatHeads(v, c.kvGroup, vFullShape, vFull);
}

/// PARACC_ATTENTION_KERNEL for a case that sets it (forceGeneric or
/// paracc).
const char *attentionKernelEnv(const Case &c) {
  return c.forceGeneric ? "generic" : "paracc";
}

/// Compares the GPU's saved statistics with the CPU's: -inf exactly where
/// the CPU has it, otherwise within 1e-3 (1 + |ref|) (both sum the same
/// widened scores in f32).
bool checkStats(const DeviceBuffer &buf, const Tensor &ref) {
  std::vector<unsigned char> host(buf.total);
  if (!cudaCheck(
          cudaMemcpy(host.data(), buf.base, buf.total, cudaMemcpyDeviceToHost),
          "cudaMemcpy to host"))
    return false;
  bool ok = true;
  for (size_t i = 0; i < buf.total; ++i)
    if ((i < buf.front || i >= buf.front + buf.bytes) && host[i] != 0xFF) {
      std::printf("  stats: guard byte %lld overwritten\n",
                  (long long)i - (long long)buf.front);
      ok = false;
      break;
    }
  const float *gpu = reinterpret_cast<const float *>(host.data() + buf.front);
  const float *cpu = ref.as<float>();
  int64_t bad = 0;
  double maxErr = 0;
  for (int64_t i = 0; i < ref.numElements(); ++i) {
    const bool refInf = std::isinf(cpu[i]) && cpu[i] < 0;
    const double err = std::fabs(double(gpu[i]) - double(cpu[i]));
    const bool good = refInf ? (std::isinf(gpu[i]) && gpu[i] < 0)
                             : err <= 1e-3 * (1.0 + std::fabs(cpu[i]));
    if (!refInf && !std::isnan(err))
      maxErr = std::max(maxErr, err);
    if (!good && bad++ < 4)
      std::printf("  stats[%lld]: gpu=%.7g cpu=%.7g\n", (long long)i, gpu[i],
                  cpu[i]);
  }
  if (bad)
    std::printf("  stats: %lld of %lld rows out of tolerance\n", (long long)bad,
                (long long)ref.numElements());
  else
    std::printf("  stats: max abs err %.3g over %lld rows\n", maxErr,
                (long long)ref.numElements());
  return ok && bad == 0;
}

/// The instruction attributes of a case: causal, sequence-first, window,
/// saved statistics, then the scale, and the start flag.
InstrAttrs caseAttrs(const Case &c) {
  InstrAttrs attrs;
  attrs.ints = {c.causal ? 1 : 0, c.sequenceFirst ? 1 : 0, c.window,
                c.saveStats ? 1 : 0, c.start ? 1 : 0};
  if (c.keyBlock || c.within)
    attrs.ints.push_back(c.keyBlock ? 1 : 0);
  if (c.within)
    attrs.ints.push_back(1);
  attrs.floats = {c.scale != 0
                      ? c.scale
                      : 1.0 / std::sqrt(double(std::max<int64_t>(c.d, 1)))};
  return attrs;
}

/// The start operand: an i64 scalar on the host.
bool allocateStart(int64_t value, Tensor &t) {
  if (!allocate(DType::I64, {}, t))
    return false;
  *static_cast<int64_t *>(t.data()) = value;
  return true;
}

bool runCase(const Case &c, uint64_t seed) {
  const std::string name = caseName(c);
  Shape qShape = c.lead, kShape = kvLead(c), vShape = kvLead(c),
        yShape = c.lead;
  qShape.insert(qShape.end(), {c.sq, c.d});
  kShape.insert(kShape.end(), {c.sk, c.d});
  vShape.insert(vShape.end(), {c.sk, c.dv});
  yShape.insert(yShape.end(), {c.sq, c.dv});
  Tensor q, k, v, mask, yRef;
  if (!allocate(c.dtype, qShape, q) || !allocate(c.dtype, kShape, k) ||
      !allocate(c.dtype, vShape, v) || !allocate(c.dtype, yShape, yRef) ||
      (c.maskShape && !allocate(c.dtype, *c.maskShape, mask)))
    return false;
  Rng rng(seed);
  for (int64_t i = 0; i < q.numElements(); ++i)
    setValue(q, i, rng.uniform(-c.range, c.range));
  for (int64_t i = 0; i < k.numElements(); ++i)
    setValue(k, i, rng.uniform(-c.range, c.range));
  for (int64_t i = 0; i < v.numElements(); ++i)
    setValue(v, i, rng.uniform(-1.f, 1.f));
  if (c.maskShape)
    fillMask(mask, c.maskFill, rng);

  InstrAttrs attrs = caseAttrs(c);
  Tensor start;
  if (c.start && !allocateStart(*c.start, start))
    return false;

  // CPU reference. The statistics are [lead..., Sq] in either layout.
  Shape statsShape = c.lead;
  statsShape.push_back(c.sq);
  Tensor statsRef;
  if (c.saveStats && !allocate(DType::F32, statsShape, statsRef))
    return false;
  // Grouped-query attention: the reference reads k and v with q's heads.
  Tensor kFull, vFull;
  if (!kvReference(c, k, v, kFull, vFull))
    return false;
  std::vector<const Tensor *> cpuIn = {&q, c.kvGroup != 1 ? &kFull : &k,
                                       c.kvGroup != 1 ? &vFull : &v};
  if (c.maskShape)
    cpuIn.push_back(&mask);
  if (c.start)
    cpuIn.push_back(&start);
  InstrAttrs refAttrs = attrs;
  refAttrs.ints[1] = 0; // The reference reads the usual layout.
  std::vector<Tensor *> cpuOut = {&yRef};
  if (c.saveStats)
    cpuOut.push_back(&statsRef);
  Status st = runCpuKernel(OpCode::Attention, refAttrs, cpuIn, cpuOut);
  if (!st.isOk()) {
    std::printf("FAIL %s: CPU reference failed: %s\n", name.c_str(),
                st.message().c_str());
    return false;
  }

  // GPU.
  const size_t es = dtypeSize(c.dtype);
  const size_t mis = size_t(c.misalign) * es;
  DeviceBuffer dq, dk, dv, dm, dy, dstats, dstart;
  if (!dq.init(q.byteSize(), mis) || !dk.init(k.byteSize(), mis) ||
      !dv.init(v.byteSize(), mis) || !dy.init(yRef.byteSize(), mis) ||
      (c.maskShape && !dm.init(mask.byteSize(), 0)) ||
      (c.start &&
       (!dstart.init(start.byteSize(), 0) || !dstart.upload(start.data()))) ||
      (c.saveStats && !dstats.init(statsRef.byteSize(), 0))) {
    std::printf("FAIL %s: device setup\n", name.c_str());
    return false;
  }
  // Sequence-first: [outer, H, S, X] -> [outer, S, H, X] on the way up (k
  // and v with their own heads).
  const int64_t heads = c.sequenceFirst ? c.lead.back() : 1;
  const int64_t kvHeads = c.sequenceFirst ? heads / c.kvGroup : 1;
  const int64_t outer =
      c.sequenceFirst ? shapeNumElements(c.lead) / std::max<int64_t>(heads, 1)
                      : 1;
  auto upload = [&](DeviceBuffer &buf, const Tensor &t, int64_t h, int64_t rows,
                    int64_t cols) {
    if (!c.sequenceFirst)
      return buf.upload(t.data());
    return buf.upload(
        swapMiddleDims(t.data(), es, outer, h, rows, cols).data());
  };
  if (!upload(dq, q, heads, c.sq, c.d) || !upload(dk, k, kvHeads, c.sk, c.d) ||
      !upload(dv, v, kvHeads, c.sk, c.dv) ||
      (c.maskShape && !dm.upload(mask.data()))) {
    std::printf("FAIL %s: device setup\n", name.c_str());
    return false;
  }
  auto layout = [&](const Shape &s) {
    return c.sequenceFirst ? sequenceFirstShape(s) : s;
  };
  std::vector<DeviceTensor> inputs = {{c.dtype, layout(qShape), dq.ptr()},
                                      {c.dtype, layout(kShape), dk.ptr()},
                                      {c.dtype, layout(vShape), dv.ptr()}};
  if (c.maskShape)
    inputs.push_back({c.dtype, *c.maskShape, dm.ptr()});
  if (c.start)
    inputs.push_back({DType::I64, {}, dstart.ptr()});
  std::vector<DeviceTensor> outs = {{c.dtype, layout(yShape), dy.ptr()}};
  if (c.saveStats)
    outs.push_back({DType::F32, statsShape, dstats.ptr()});

  Status launched;
  {
    ScopedEnv kernel("PARACC_ATTENTION_KERNEL", attentionKernelEnv(c),
                     c.forceGeneric || c.paracc);
    launched = launchAttentionStored(attrs, inputs, outs, /*stream=*/nullptr,
                                     {c.tf32});
  }
  if (!launched.isOk()) {
    std::printf("FAIL %s: launchAttention: %s\n", name.c_str(),
                launched.message().c_str());
    return false;
  }
  if (!cudaCheck(cudaDeviceSynchronize(), "the kernel (synchronize)") ||
      !cudaCheck(cudaGetLastError(), "the kernel")) {
    std::printf("FAIL %s: kernel error\n", name.c_str());
    return false;
  }
  std::vector<unsigned char> host(dy.total);
  if (!cudaCheck(
          cudaMemcpy(host.data(), dy.base, dy.total, cudaMemcpyDeviceToHost),
          "cudaMemcpy to host")) {
    std::printf("FAIL %s: copy back\n", name.c_str());
    return false;
  }

  bool ok = true;
  if (c.saveStats && !checkStats(dstats, statsRef))
    ok = false;
  // Guards.
  size_t guardHits = 0, firstGuard = 0;
  for (size_t i = 0; i < dy.total; ++i) {
    if (i >= dy.front && i < dy.front + dy.bytes)
      continue;
    if (host[i] != 0xFF && guardHits++ == 0)
      firstGuard = i;
  }
  if (guardHits) {
    std::printf("  %zu guard bytes overwritten, first at byte %lld relative "
                "to the output\n",
                guardHits, (long long)firstGuard - (long long)dy.front);
    ok = false;
  }

  // Values.
  const int64_t n = yRef.numElements();
  const void *gpu = host.data() + dy.front;
  std::vector<unsigned char> headFirst;
  if (c.sequenceFirst) {
    headFirst = swapMiddleDims(gpu, es, outer, c.sq, heads, c.dv);
    gpu = headFirst.data();
  }
  double sumSq = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double r = getValue(yRef.data(), c.dtype, i);
    sumSq += r * r;
  }
  const double rms = n ? std::sqrt(sumSq / double(n)) : 0;
  // TF32 rounds the operands to f16's significand (f32 range, f32
  // results): f16's tolerance.
  const double rtol = tolerance(tf32Shape(c) ? DType::F16 : c.dtype);
  double maxAbs = 0, maxRatio = 0;
  int64_t bad = 0, nans = 0;
  std::vector<int64_t> badIdx;
  std::set<int64_t> badRows;
  for (int64_t i = 0; i < n; ++i) {
    const double r = getValue(yRef.data(), c.dtype, i);
    const double g = getValue(gpu, c.dtype, i);
    const double err = std::fabs(g - r);
    const double tol = rtol * (std::fabs(r) + rms) + 1e-6;
    if (std::isnan(g))
      ++nans;
    if (!(err <= tol)) {
      ++bad;
      if (badIdx.size() < 8)
        badIdx.push_back(i);
      if (badRows.size() < 12)
        badRows.insert(i / std::max<int64_t>(c.dv, 1));
    }
    if (!std::isnan(err)) {
      maxAbs = std::max(maxAbs, err);
      maxRatio = std::max(maxRatio, err / tol);
    }
  }
  if (bad)
    ok = false;
  std::printf("%s %s [%s] maxAbsErr=%.3g maxErr/tol=%.3g rms(ref)=%.3g\n",
              ok ? "PASS" : "FAIL", name.c_str(), expectedPath(c), maxAbs,
              maxRatio, rms);
  if (bad) {
    std::printf("  %lld of %lld elements out of tolerance (%lld NaN); "
                "tol = %g * (|ref| + rms) + 1e-6\n",
                (long long)bad, (long long)n, (long long)nans, rtol);
    for (int64_t i : badIdx) {
      const int64_t col = i % c.dv, row = (i / c.dv) % c.sq,
                    b = i / (c.dv * c.sq);
      std::printf("  [batch %lld, row %lld, col %lld] gpu=%.6g ref=%.6g\n",
                  (long long)b, (long long)row, (long long)col,
                  getValue(gpu, c.dtype, i), getValue(yRef.data(), c.dtype, i));
    }
    std::printf("  first failing (batch, row):");
    for (int64_t r : badRows)
      std::printf(" (%lld,%lld)", (long long)(r / c.sq), (long long)(r % c.sq));
    std::printf("\n");
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// AttentionGrad: launchAttentionGrad against the CPU kernel.
//===----------------------------------------------------------------------===//

/// Whether the operands have the tensor-core backward's element type and
/// head dims (the workspace then includes the f32 dq accumulator).
bool tensorCoreGradShape(const Case &c) {
  return (c.dtype == DType::BF16 || c.dtype == DType::F16) && c.d == c.dv &&
         (c.d == 64 || c.d == 128);
}

/// The kernels launchAttentionGrad should pick (documented rule).
const char *expectedGradPath(const Case &c) {
  if (c.sq == 0 || c.sk == 0)
    return "no kernel";
  if (tf32Shape(c) && c.saveStats)
    return "tf32";
  const bool tc = tensorCoreGradShape(c) && !c.misalign && !c.forceGeneric;
  if (!tc)
    return "generic";
  return c.recompute ? "tensorcore recompute" : "tensorcore atomic";
}

/// Relative tolerance of the gradients, scaled by |ref| + max(rms of the
/// element's row, rms of the tensor): an element sums terms of about its
/// row's magnitude, and rows differ a lot (causal rows that see few keys,
/// rows that see none and are exactly 0). The tensor-core kernels round P
/// and dS to the element type for the second products, like the forward
/// rounds P.
double gradTolerance(DType dt) {
  switch (dt) {
  case DType::BF16:
    return 3e-2;
  case DType::F16:
    return 1e-2;
  default:
    return 1e-4;
  }
}

std::vector<Case> makeGradCases() {
  std::vector<Case> cases;
  auto mk = [](DType dt, Shape lead, int64_t sq, int64_t sk, int64_t d,
               int64_t dv, bool causal) {
    Case c;
    c.dtype = dt;
    c.lead = std::move(lead);
    c.sq = sq;
    c.sk = sk;
    c.d = d;
    c.dv = dv;
    c.causal = causal;
    return c;
  };
  auto add = [&](Case c) { cases.push_back(c); };
  const DType bf = DType::BF16, f16 = DType::F16, f32 = DType::F32;
  for (bool causal : {false, true}) {
    // Tensor-core kernels: whole and partial blocks (128 rows), both head
    // dims, Sq != Sk both ways (causal with Sq > Sk: rows without keys).
    add(mk(bf, {2, 3}, 64, 64, 64, 64, causal));
    add(mk(bf, {2, 3}, 129, 129, 64, 64, causal));
    add(mk(bf, {2, 3}, 100, 100, 128, 128, causal));
    add(mk(bf, {2, 3}, 200, 300, 64, 64, causal));
    add(mk(bf, {2, 3}, 300, 200, 128, 128, causal));
    add(mk(bf, {2}, 17, 150, 128, 128, causal));
    add(mk(bf, {2}, 150, 17, 64, 64, causal));
    add(mk(f16, {2, 3}, 129, 129, 64, 64, causal));
    add(mk(f16, {2, 3}, 100, 200, 128, 128, causal));
    // SIMT kernels: f32, odd and unequal head dims, bf16 off the
    // tensor-core shapes.
    add(mk(f32, {2, 3}, 64, 64, 64, 64, causal));
    add(mk(f32, {2, 3}, 129, 129, 128, 128, causal));
    add(mk(f32, {2, 3}, 100, 150, 40, 40, causal));
    add(mk(f32, {2, 3}, 150, 100, 40, 24, causal));
    add(mk(bf, {2, 3}, 100, 100, 40, 40, causal));
    add(mk(bf, {2, 3}, 100, 70, 64, 32, causal));
  }
  add(mk(bf, {1, 2}, 512, 512, 64, 64, true));
  add(mk(bf, {2, 3}, 257, 257, 64, 64, true));
  add(mk(f32, {2, 2}, 40, 40, 256, 256, false));
  add(mk(f32, {2}, 50, 50, 1, 1, true));
  add(mk(bf, {2}, 1, 300, 64, 64, true)); // One decoding step.
  add(mk(f32, {2}, 1, 1, 64, 64, false));
  // Masks: full, broadcast over heads, key padding, per-query, fully
  // masked rows, scalar row; on both kernels.
  for (DType dt : {bf, f32}) {
    const int64_t d = dt == f32 ? 40 : 64;
    Case c = mk(dt, {2, 3}, 129, 129, d, d, false);
    c.maskShape = Shape{129, 129};
    add(c);
    c = mk(dt, {2, 3}, 100, 200, 128, 128, true);
    c.maskShape = Shape{2, 1, 100, 200};
    c.maskFill = MaskFill::WithInf;
    add(c);
    c = mk(dt, {2, 3}, 100, 100, d, d, false);
    c.maskShape = Shape{1, 100}; // Key padding.
    c.maskFill = MaskFill::WithInf;
    add(c);
    c = mk(dt, {2, 3}, 100, 70, d, d, false);
    c.maskShape = Shape{100, 1};
    add(c);
    c = mk(dt, {2, 3}, 65, 65, 64, 64, true);
    c.maskShape = Shape{2, 3, 65, 65};
    c.maskFill = MaskFill::FullRows;
    add(c);
    c = mk(dt, {2, 2, 2}, 65, 65, d, d, false);
    c.maskShape = Shape{2, 1, 2, 65, 65}; // Leading dims that do not merge.
    c.maskFill = MaskFill::WithInf;
    add(c);
  }
  {
    Case c = mk(bf, {2, 3}, 33, 33, 128, 128, false);
    c.maskShape = Shape{33};
    add(c);
  }
  // Scales: a sharp softmax, a negative scale.
  {
    Case c = mk(bf, {2, 2}, 129, 129, 64, 64, false);
    c.scale = 0.5;
    c.range = 3.f;
    add(c);
    c = mk(f32, {2, 2}, 129, 129, 40, 40, true);
    c.scale = 0.5;
    c.range = 3.f;
    add(c);
    c = mk(bf, {2, 2}, 129, 129, 128, 128, true);
    c.scale = -0.125;
    add(c);
  }
  // The SIMT kernels on tensor-core shapes, forced and through
  // misalignment.
  {
    Case c = mk(bf, {2, 2}, 129, 129, 64, 64, true);
    c.forceGeneric = true;
    add(c);
    c = mk(bf, {2, 3}, 100, 200, 128, 128, true);
    c.maskShape = Shape{2, 1, 100, 200};
    c.maskFill = MaskFill::WithInf;
    c.forceGeneric = true;
    add(c);
    c = mk(bf, {2, 2}, 65, 65, 64, 64, true);
    c.misalign = 1;
    add(c);
  }
  // The tensor-core backward without atomics (PARACC_ATTENTION_BWD=
  // recompute): both head dims, partial blocks, causal, a mask.
  {
    Case c = mk(bf, {2, 3}, 129, 129, 64, 64, false);
    c.recompute = true;
    add(c);
    c = mk(bf, {2, 3}, 200, 300, 64, 64, true);
    c.recompute = true;
    add(c);
    c = mk(f16, {2, 3}, 100, 200, 128, 128, true);
    c.recompute = true;
    add(c);
    c = mk(bf, {2, 3}, 100, 200, 128, 128, true);
    c.maskShape = Shape{2, 1, 100, 200};
    c.maskFill = MaskFill::WithInf;
    c.recompute = true;
    add(c);
  }
  // Sliding windows (tensor cores with atomics and with recompute, SIMT).
  for (DType dt : {bf, f32})
    for (int64_t window : {1, 7, 100}) {
      Case c = mk(dt, {2, 2}, 200, 200, 64, 64, true);
      c.window = window;
      add(c);
      c.recompute = true;
      add(c);
      c = mk(dt, {2, 3}, 100, 160, dt == f32 ? 40 : 128,
             dt == f32 ? 40 : 128, true);
      c.window = window;
      c.maskShape = Shape{2, 1, 1, 160};
      c.maskFill = MaskFill::WithInf;
      c.sequenceFirst = true;
      add(c);
    }
  // Sequence-first operands.
  for (DType dt : {bf, f32})
    for (bool causal : {false, true}) {
      Case c = mk(dt, {2, 3}, 129, 129, 64, 64, causal);
      c.sequenceFirst = true;
      add(c);
      c = mk(dt, {2, 4}, 100, 200, 128, 128, causal);
      c.sequenceFirst = true;
      add(c);
      c = mk(dt, {2, 3}, 100, 100, 40, 40, causal);
      c.sequenceFirst = true;
      add(c);
      c = mk(dt, {2, 2}, 100, 100, 64, 64, causal);
      c.sequenceFirst = true;
      c.maskShape = Shape{2, 1, 1, 100};
      c.maskFill = MaskFill::WithInf;
      add(c);
    }
  // Degenerate shapes: no keys (dq = 0), no queries (dk = dv = 0).
  add(mk(bf, {2}, 4, 0, 64, 64, false));
  add(mk(f32, {2}, 0, 8, 40, 40, true));
  // Saved statistics: the shapes cuDNN's backward takes without rerunning
  // the forward (bf16/f16, causal or not, both layouts, both head dims),
  // and ones it does not, where paracc's kernels ignore them.
  for (bool causal : {false, true}) {
    Case c = mk(bf, {2, 4}, 256, 256, 64, 64, causal);
    c.saveStats = true;
    add(c);
    c = mk(f16, {2, 3}, 129, 129, 128, 128, causal);
    c.saveStats = true;
    add(c);
    c = mk(bf, {2, 4}, 200, 200, 64, 64, causal);
    c.sequenceFirst = true;
    c.saveStats = true;
    add(c);
    c = mk(bf, {2, 3}, 100, 100, 64, 64, causal);
    c.maskShape = Shape{2, 1, 1, 100};
    c.maskFill = MaskFill::WithInf;
    c.saveStats = true;
    add(c);
    c = mk(f32, {2, 3}, 100, 150, 40, 40, causal);
    c.saveStats = true;
    add(c);
  }
  // The start operand (context parallelism), on paracc's kernels (cuDNN
  // fixes its diagonal when it builds its graph): the tensor-core paths
  // (atomic dq and recompute), the SIMT one, a window, saved statistics.
  // Ring attention's blocks of keys (keyBlock, on the atomic path): keys
  // before the queries, the diagonal block, keys after them (rows that see
  // none), sequence-first, head dim 128.
  for (int64_t start : {int64_t(256), int64_t(0), int64_t(-64)}) {
    Case c = mk(bf, {2, 2}, 128, 128, 64, 64, true);
    c.start = start;
    c.saveStats = true;
    c.keyBlock = true;
    add(c);
    // The diagonal block (start 0): marked, as the encoder marks it.
    if (start == 0) {
      c.within = true;
      add(c);
    }
  }
  {
    Case c = mk(f16, {2, 4}, 128, 128, 128, 128, true);
    c.start = 64;
    c.saveStats = true;
    c.keyBlock = true;
    c.sequenceFirst = true;
    add(c);
  }
  for (int64_t start : {int64_t(0), int64_t(384)}) {
    Case c = mk(bf, {2, 2}, 128, 512, 64, 64, true);
    c.start = start;
    add(c);
    c.within = true;
    add(c);
    c.within = false;
    c.recompute = true;
    add(c);
  }
  {
    Case c = mk(bf, {1, 2}, 129, 400, 128, 128, true);
    c.start = 150;
    c.window = 90;
    add(c);
    c = mk(f32, {2, 2}, 64, 256, 40, 40, true);
    c.start = 100;
    add(c);
    c = mk(bf, {2, 4}, 128, 512, 64, 64, true);
    c.start = 256;
    c.saveStats = true;
    add(c);
    c.within = true;
    add(c);
    c = mk(bf, {2, 4}, 128, 512, 64, 64, true);
    c.start = 128;
    c.sequenceFirst = true;
    add(c);
    c.within = true;
    add(c);
  }
  addTf32Cases(cases, /*grad=*/true);
  addGqaCases(cases, /*grad=*/true);
  return cases;
}

/// The gradient tolerance's factor for a case. cuDNN's backward, where it
/// may run, differs more from the f64 reference than paracc's kernels on
/// the sharp-softmax case (q, k in [-3, 3), scale 0.5: scores with a
/// standard deviation near 12, rows almost one-hot): 1.22x paracc's bf16
/// tolerance for dq, 1.02x for dk when first run on an H200 (cuDNN 9.19),
/// within it elsewhere. Those cases get 1.5x; every other case keeps 1x.
double sharpSoftmaxWidening(const Case &c) {
  return cudnnMayRun() && c.range > 2.f && c.dtype != DType::F32 ? 1.5 : 1.0;
}

/// The gradient tolerance's factor on the TF32 path: f16's tolerance (the
/// operands, P and dS have f16's significand) over f32's.
double tf32Widening(const Case &c) {
  return std::strcmp(expectedGradPath(c), "tf32") == 0
             ? gradTolerance(DType::F16) / gradTolerance(DType::F32)
             : 1.0;
}

/// dq's extra tolerance per row when the backward is given the forward's
/// saved result O in `dt` (bf16/f16) instead of the reference's exact one:
/// a kernel that forms D_i = sum_c dy_ic O_ic from the rounded O (as cuDNN,
/// FlashAttention and PyTorch's SDPA backward do) shifts dS_ij by
/// -P_ij dD_i and so dq_i by -scale dD_i sum_j P_ij k_j, whose size is at
/// most scale * u * sum_c |dy_ic O_ic| * max |k| (u the unit roundoff of
/// `dt`; P's rows sum to 1). Zero for f32 and without saved statistics.
std::vector<double> savedOutputSlack(const Tensor &dy, const Tensor &y,
                                     const Tensor &k, int64_t dv, double scale,
                                     DType dt) {
  const double u = dt == DType::BF16  ? std::ldexp(1.0, -8)
                   : dt == DType::F16 ? std::ldexp(1.0, -11)
                                      : 0.0;
  const int64_t rowLen = std::max<int64_t>(dv, 1);
  std::vector<double> slack(size_t(y.numElements() / rowLen), 0.0);
  if (u == 0.0)
    return slack;
  double kMax = 0;
  for (int64_t i = 0; i < k.numElements(); ++i)
    kMax = std::max(kMax, std::fabs(getValue(k.data(), dt, i)));
  for (int64_t i = 0; i < y.numElements(); ++i)
    slack[size_t(i / rowLen)] +=
        std::fabs(getValue(dy.data(), dt, i) * getValue(y.data(), dt, i));
  for (double &s : slack)
    s *= std::fabs(scale) * u * kMax;
  return slack;
}

/// Compares one result (in the reference layout, rows of `cols` elements)
/// with its reference; prints the worst elements on failure. `rowSlack`,
/// when given, adds to each row's tolerance.
bool compareResult(const char *what, const Tensor &ref, const void *gpu,
                   int64_t rows, int64_t cols, DType dt, std::string &line,
                   double widen = 1.0,
                   const std::vector<double> *rowSlack = nullptr) {
  const int64_t n = ref.numElements();
  const int64_t rowLen = std::max<int64_t>(cols, 1);
  double sumSq = 0;
  std::vector<double> rowRms(size_t(n / rowLen), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const double r = getValue(ref.data(), dt, i);
    sumSq += r * r;
    rowRms[i / rowLen] += r * r;
  }
  for (double &r : rowRms)
    r = std::sqrt(r / double(rowLen));
  const double rms = n ? std::sqrt(sumSq / double(n)) : 0;
  const double rtol = gradTolerance(dt) * widen;
  double maxAbs = 0, maxRatio = 0;
  int64_t bad = 0, nans = 0;
  std::vector<int64_t> badIdx;
  for (int64_t i = 0; i < n; ++i) {
    const double r = getValue(ref.data(), dt, i);
    const double g = getValue(gpu, dt, i);
    const double err = std::fabs(g - r);
    const double tol =
        rtol * (std::fabs(r) + std::max(rowRms[i / rowLen], rms)) + 1e-6 +
        (rowSlack ? (*rowSlack)[size_t(i / rowLen)] : 0.0);
    if (std::isnan(g))
      ++nans;
    if (!(err <= tol)) {
      ++bad;
      if (badIdx.size() < 6)
        badIdx.push_back(i);
    }
    if (!std::isnan(err)) {
      maxAbs = std::max(maxAbs, err);
      maxRatio = std::max(maxRatio, err / tol);
    }
  }
  char buf[160];
  std::snprintf(buf, sizeof(buf), " %s: maxErr/tol=%.3g rms=%.3g", what,
                maxRatio, rms);
  line += buf;
  if (!bad)
    return true;
  std::printf("  %s: %lld of %lld elements out of tolerance (%lld NaN), max "
              "abs err %.3g; tol = %g * (|ref| + max(rms(row), rms)) + 1e-6\n",
              what, (long long)bad, (long long)n, (long long)nans, maxAbs,
              rtol);
  for (int64_t i : badIdx) {
    const int64_t col = i % std::max<int64_t>(cols, 1);
    const int64_t row =
        (i / std::max<int64_t>(cols, 1)) % std::max<int64_t>(rows, 1);
    const int64_t b = i / std::max<int64_t>(cols * rows, 1);
    std::printf("  %s[batch %lld, row %lld, col %lld] gpu=%.6g ref=%.6g\n",
                what, (long long)b, (long long)row, (long long)col,
                getValue(gpu, dt, i), getValue(ref.data(), dt, i));
  }
  return false;
}

/// Whether bytes outside [front, front + bytes) of a copied-back buffer
/// are still 0xFF.
bool guardsIntact(const std::vector<unsigned char> &host,
                  const DeviceBuffer &buf, const char *what) {
  size_t hits = 0, first = 0;
  for (size_t i = 0; i < buf.total; ++i) {
    if (i >= buf.front && i < buf.front + buf.bytes)
      continue;
    if (host[i] != 0xFF && hits++ == 0)
      first = i;
  }
  if (hits)
    std::printf("  %s: %zu guard bytes overwritten, first at byte %lld "
                "relative to the buffer\n",
                what, hits, (long long)first - (long long)buf.front);
  return hits == 0;
}

bool copyBack(const DeviceBuffer &buf, std::vector<unsigned char> &host) {
  host.resize(buf.total);
  return cudaCheck(
      cudaMemcpy(host.data(), buf.base, buf.total, cudaMemcpyDeviceToHost),
      "cudaMemcpy to host");
}

bool runGradCase(const Case &c, uint64_t seed) {
  const std::string name = "grad " + caseName(c);
  Shape qShape = c.lead, kShape = kvLead(c), vShape = kvLead(c),
        yShape = c.lead;
  qShape.insert(qShape.end(), {c.sq, c.d});
  kShape.insert(kShape.end(), {c.sk, c.d});
  vShape.insert(vShape.end(), {c.sk, c.dv});
  yShape.insert(yShape.end(), {c.sq, c.dv});
  Tensor q, k, v, dy, mask, dqRef, dkRef, dvRef;
  if (!allocate(c.dtype, qShape, q) || !allocate(c.dtype, kShape, k) ||
      !allocate(c.dtype, vShape, v) || !allocate(c.dtype, yShape, dy) ||
      !allocate(c.dtype, qShape, dqRef) || !allocate(c.dtype, kShape, dkRef) ||
      !allocate(c.dtype, vShape, dvRef) ||
      (c.maskShape && !allocate(c.dtype, *c.maskShape, mask)))
    return false;
  Rng rng(seed);
  for (int64_t i = 0; i < q.numElements(); ++i)
    setValue(q, i, rng.uniform(-c.range, c.range));
  for (int64_t i = 0; i < k.numElements(); ++i)
    setValue(k, i, rng.uniform(-c.range, c.range));
  for (int64_t i = 0; i < v.numElements(); ++i)
    setValue(v, i, rng.uniform(-1.f, 1.f));
  for (int64_t i = 0; i < dy.numElements(); ++i)
    setValue(dy, i, rng.uniform(-1.f, 1.f));
  if (c.maskShape)
    fillMask(mask, c.maskFill, rng);

  InstrAttrs attrs = caseAttrs(c);
  Tensor start;
  if (c.start && !allocateStart(*c.start, start))
    return false;

  // CPU reference (usual layout). Saved statistics come from the CPU's
  // forward; the CPU's backward takes them and recomputes its own.
  InstrAttrs refAttrs = attrs;
  refAttrs.ints[1] = 0; // The reference reads the usual layout.
  Shape statsShape = c.lead;
  statsShape.push_back(c.sq);
  Tensor y, stats;
  // Grouped-query attention: the reference reads k and v with q's heads
  // and gives dk and dv per query head, summed over each group below.
  Tensor kFull, vFull, dkFull, dvFull;
  if (!kvReference(c, k, v, kFull, vFull) ||
      (c.kvGroup != 1 && (!allocate(c.dtype, kFull.shape(), dkFull) ||
                          !allocate(c.dtype, vFull.shape(), dvFull))))
    return false;
  const Tensor *kRef = c.kvGroup != 1 ? &kFull : &k,
               *vRef = c.kvGroup != 1 ? &vFull : &v;
  std::vector<const Tensor *> fwdIn = {&q, kRef, vRef};
  if (c.maskShape)
    fwdIn.push_back(&mask);
  if (c.start)
    fwdIn.push_back(&start);
  if (c.saveStats) {
    if (!allocate(c.dtype, yShape, y) ||
        !allocate(DType::F32, statsShape, stats))
      return false;
    InstrAttrs fwdAttrs = refAttrs;
    fwdAttrs.ints.resize(5); // keyBlock is the backward's.
    Status fwd = runCpuKernel(OpCode::Attention, fwdAttrs, fwdIn, {&y, &stats});
    if (!fwd.isOk()) {
      std::printf("FAIL %s: CPU forward failed: %s\n", name.c_str(),
                  fwd.message().c_str());
      return false;
    }
    if (c.keyBlock) {
      auto *s = static_cast<float *>(stats.data());
      for (int64_t i = 0; i < stats.numElements(); ++i)
        s[i] = std::isinf(s[i]) ? 0.3f : s[i] + rng.uniform(0.f, 1.f);
      for (int64_t i = 0; i < y.numElements(); ++i)
        setValue(y, i, rng.uniform(-1.f, 1.f));
    }
  }
  std::vector<const Tensor *> cpuIn = {&dy, &q, kRef, vRef};
  if (c.maskShape)
    cpuIn.push_back(&mask);
  if (c.start)
    cpuIn.push_back(&start);
  if (c.saveStats) {
    cpuIn.push_back(&y);
    cpuIn.push_back(&stats);
  }
  Status st = runCpuKernel(OpCode::AttentionGrad, refAttrs, cpuIn,
                           {&dqRef, c.kvGroup != 1 ? &dkFull : &dkRef,
                            c.kvGroup != 1 ? &dvFull : &dvRef});
  if (!st.isOk()) {
    std::printf("FAIL %s: CPU reference failed: %s\n", name.c_str(),
                st.message().c_str());
    return false;
  }
  if (c.kvGroup != 1) {
    sumHeadGroups(dkFull, c.kvGroup, dkRef);
    sumHeadGroups(dvFull, c.kvGroup, dvRef);
  }

  // GPU operands, NaN-filled results, uninitialized (0xFF) workspace.
  const size_t es = dtypeSize(c.dtype);
  const size_t mis = size_t(c.misalign) * es;
  DeviceBuffer bq, bk, bv, bdy, bm, bdq, bdk, bdv, bws, by, bstats, bstart;
  if (!bq.init(q.byteSize(), mis) || !bk.init(k.byteSize(), mis) ||
      !bv.init(v.byteSize(), mis) || !bdy.init(dy.byteSize(), mis) ||
      !bdq.init(q.byteSize(), mis) || !bdk.init(k.byteSize(), mis) ||
      !bdv.init(v.byteSize(), mis) ||
      (c.maskShape && !bm.init(mask.byteSize(), 0)) ||
      (c.start &&
       (!bstart.init(start.byteSize(), 0) || !bstart.upload(start.data()))) ||
      (c.saveStats &&
       (!by.init(y.byteSize(), mis) || !bstats.init(stats.byteSize(), 0)))) {
    std::printf("FAIL %s: device setup\n", name.c_str());
    return false;
  }
  const int64_t heads = c.sequenceFirst ? c.lead.back() : 1;
  const int64_t kvHeads = c.sequenceFirst ? heads / c.kvGroup : 1;
  const int64_t outer =
      c.sequenceFirst ? shapeNumElements(c.lead) / std::max<int64_t>(heads, 1)
                      : 1;
  auto upload = [&](DeviceBuffer &buf, const Tensor &t, int64_t h, int64_t rows,
                    int64_t cols) {
    if (!c.sequenceFirst)
      return buf.upload(t.data());
    return buf.upload(
        swapMiddleDims(t.data(), es, outer, h, rows, cols).data());
  };
  if (!upload(bq, q, heads, c.sq, c.d) || !upload(bk, k, kvHeads, c.sk, c.d) ||
      !upload(bv, v, kvHeads, c.sk, c.dv) ||
      !upload(bdy, dy, heads, c.sq, c.dv) ||
      (c.maskShape && !bm.upload(mask.data())) ||
      (c.saveStats &&
       (!upload(by, y, heads, c.sq, c.dv) || !bstats.upload(stats.data())))) {
    std::printf("FAIL %s: device setup\n", name.c_str());
    return false;
  }
  auto layout = [&](const Shape &s) {
    return c.sequenceFirst ? sequenceFirstShape(s) : s;
  };
  std::vector<DeviceTensor> inputs = {{c.dtype, layout(yShape), bdy.ptr()},
                                      {c.dtype, layout(qShape), bq.ptr()},
                                      {c.dtype, layout(kShape), bk.ptr()},
                                      {c.dtype, layout(vShape), bv.ptr()}};
  if (c.maskShape)
    inputs.push_back({c.dtype, *c.maskShape, bm.ptr()});
  if (c.start)
    inputs.push_back({DType::I64, {}, bstart.ptr()});
  if (c.saveStats) {
    inputs.push_back({c.dtype, layout(yShape), by.ptr()});
    inputs.push_back({DType::F32, statsShape, bstats.ptr()});
  }
  const std::vector<DeviceTensor> outputs = {
      {c.dtype, layout(qShape), bdq.ptr()},
      {c.dtype, layout(kShape), bdk.ptr()},
      {c.dtype, layout(vShape), bdv.ptr()}};
  const size_t wsBytes = gradWorkspaceStored(attrs, inputs);
  // LSE and Delta, then (tensor-core shapes) 16 bytes of alignment slack
  // and the f32 dq accumulator, then (grouped-query attention) 256 bytes
  // of slack, dk with q's heads rounded up to 256 bytes, and dv with q's
  // heads.
  const size_t batchKeys = size_t(shapeNumElements(c.lead) * c.sk) * es;
  const size_t wantWs =
      c.sq && c.sk
          ? 2 * sizeof(float) *
                    size_t(q.numElements() / std::max<int64_t>(c.d, 1)) +
                (tensorCoreGradShape(c)
                     ? 16 + sizeof(float) * size_t(q.numElements())
                     : 0) +
                (c.kvGroup != 1
                     ? 256 + (batchKeys * size_t(c.d) + 255) / 256 * 256 +
                           batchKeys * size_t(c.dv)
                     : 0)
          : 0;
  // cuDNN's attention, where it may run, needs more (CudnnAttention.h).
  if (c.d > 0 && (cudnnMayRun() ? wsBytes < wantWs : wsBytes != wantWs)) {
    std::printf("FAIL %s: attentionGradWorkspaceBytes = %zu, expected %zu\n",
                name.c_str(), wsBytes, wantWs);
    return false;
  }
  if (!bws.init(wsBytes, 0)) {
    std::printf("FAIL %s: device setup\n", name.c_str());
    return false;
  }

  // Two launches: the second must reproduce the first bit for bit.
  std::vector<unsigned char> host[2][3];
  std::vector<unsigned char> wsHost;
  const DeviceBuffer *outBufs[3] = {&bdq, &bdk, &bdv};
  for (int run = 0; run < 2; ++run) {
    Status launched;
    {
      ScopedEnv kernel("PARACC_ATTENTION_KERNEL", attentionKernelEnv(c),
                       c.forceGeneric || c.paracc);
      ScopedEnv recompute("PARACC_ATTENTION_BWD", "recompute", c.recompute);
      launched =
          launchAttentionGradStored(attrs, inputs, outputs, bws.ptr(), wsBytes,
                                    /*stream=*/nullptr, {c.tf32});
    }
    if (!launched.isOk()) {
      std::printf("FAIL %s: launchAttentionGrad: %s\n", name.c_str(),
                  launched.message().c_str());
      return false;
    }
    if (!cudaCheck(cudaDeviceSynchronize(), "the kernels (synchronize)") ||
        !cudaCheck(cudaGetLastError(), "the kernels")) {
      std::printf("FAIL %s: kernel error\n", name.c_str());
      return false;
    }
    for (int o = 0; o < 3; ++o)
      if (!copyBack(*outBufs[o], host[run][o])) {
        std::printf("FAIL %s: copy back\n", name.c_str());
        return false;
      }
  }
  if (!copyBack(bws, wsHost)) {
    std::printf("FAIL %s: copy back\n", name.c_str());
    return false;
  }

  bool ok = guardsIntact(host[0][0], bdq, "dq") &&
            guardsIntact(host[0][1], bdk, "dk") &&
            guardsIntact(host[0][2], bdv, "dv") &&
            guardsIntact(wsHost, bws, "workspace");
  // dq of the atomic path may differ in its last bits.
  const bool atomicDq =
      std::strcmp(expectedGradPath(c), "tensorcore atomic") == 0 ||
      std::strcmp(expectedGradPath(c), "tf32") == 0;
  bool deterministic = true;
  for (int o = atomicDq ? 1 : 0; o < 3; ++o)
    deterministic &= host[0][o] == host[1][o];
  if (!deterministic)
    std::printf("  the second launch gave different bits\n");
  ok &= deterministic;

  // Values, back in the reference layout.
  const Tensor *refs[3] = {&dqRef, &dkRef, &dvRef};
  const char *names[3] = {"dq", "dk", "dv"};
  const int64_t rows[3] = {c.sq, c.sk, c.sk}, cols[3] = {c.d, c.d, c.dv};
  const int64_t outHeads[3] = {heads, kvHeads, kvHeads};
  const std::vector<double> dqSlack =
      c.saveStats
          ? savedOutputSlack(dy, y, k, c.dv, attrs.floats[0], c.dtype)
          : std::vector<double>(
                size_t(dqRef.numElements() / std::max<int64_t>(c.d, 1)), 0.0);
  std::string line;
  for (int o = 0; o < 3; ++o) {
    const void *gpu = host[0][o].data() + outBufs[o]->front;
    std::vector<unsigned char> headFirst;
    if (c.sequenceFirst) {
      headFirst = swapMiddleDims(gpu, es, outer, rows[o], outHeads[o], cols[o]);
      gpu = headFirst.data();
    }
    ok &= compareResult(names[o], *refs[o], gpu, rows[o], cols[o], c.dtype,
                        line, sharpSoftmaxWidening(c) * tf32Widening(c),
                        o == 0 ? &dqSlack : nullptr);
  }
  std::printf("%s %s [%s]%s\n", ok ? "PASS" : "FAIL", name.c_str(),
              expectedGradPath(c), line.c_str());
  return ok;
}

/// Operands launchAttentionGrad must reject with an "attention_grad: "
/// error; adds the outcomes to `passed` and `failed`.
void runGradErrorCases(int &passed, int &failed) {
  DeviceBuffer buf, ws;
  if (!buf.init(1 << 20, 0) || !ws.init(1 << 16, 0)) {
    ++failed;
    return;
  }
  void *p = buf.ptr();
  const DType bf = DType::BF16;
  InstrAttrs attrs;
  attrs.ints = {1};
  attrs.floats = {0.125};
  auto t = [&](DType dt, Shape s) { return DeviceTensor{dt, std::move(s), p}; };
  auto run = [&](const char *what, const InstrAttrs &a,
                 const std::vector<DeviceTensor> &in,
                 const std::vector<DeviceTensor> &out, size_t wsBytes) {
    Status st =
        launchAttentionGradStored(a, in, out, ws.ptr(), wsBytes, nullptr);
    const bool ok =
        !st.isOk() && st.message().rfind("attention_grad: ", 0) == 0;
    std::printf("%s grad error case: %s -> %s\n", ok ? "PASS" : "FAIL", what,
                st.isOk() ? "(accepted)" : st.message().c_str());
    ++(ok ? passed : failed);
  };
  const std::vector<DeviceTensor> in = {t(bf, {2, 8, 64}), t(bf, {2, 8, 64}),
                                        t(bf, {2, 8, 64}), t(bf, {2, 8, 64})};
  const std::vector<DeviceTensor> out = {t(bf, {2, 8, 64}), t(bf, {2, 8, 64}),
                                         t(bf, {2, 8, 64})};
  const size_t need = gradWorkspaceStored(attrs, in);
  // LSE and Delta, 16 bytes of slack, the f32 dq accumulator.
  const size_t own = 2 * 2 * 8 * sizeof(float) + 16 + 2 * 8 * 64 * sizeof(float);
  const bool sizeOk = cudnnMayRun() ? need >= own : need == own;
  std::printf("%s grad workspace bytes: %zu\n", sizeOk ? "PASS" : "FAIL", need);
  ++(sizeOk ? passed : failed);
  run("workspace too small", attrs, in, out, need - 4);
  run("two results", attrs, in, {out[0], out[1]}, need);
  run("three operands", attrs, {in[0], in[1], in[2]}, out, need);
  run("dy shape", attrs, {t(bf, {2, 8, 32}), in[1], in[2], in[3]}, out, need);
  run("dk dtype", attrs, in, {out[0], t(DType::F16, {2, 8, 64}), out[2]}, need);
  run("dv shape", attrs, in, {out[0], out[1], t(bf, {2, 8, 32})}, need);
  run("head dim 320", attrs,
      {t(bf, {2, 8, 320}), t(bf, {2, 8, 320}), t(bf, {2, 8, 320}),
       t(bf, {2, 8, 320})},
      {t(bf, {2, 8, 320}), t(bf, {2, 8, 320}), t(bf, {2, 8, 320})}, 1 << 16);
  run("i32 operands", attrs,
      {t(DType::I32, {2, 8, 64}), t(DType::I32, {2, 8, 64}),
       t(DType::I32, {2, 8, 64}), t(DType::I32, {2, 8, 64})},
      {t(DType::I32, {2, 8, 64}), t(DType::I32, {2, 8, 64}),
       t(DType::I32, {2, 8, 64})},
      need);
  run("mask does not broadcast", attrs,
      {in[0], in[1], in[2], in[3], t(bf, {8, 5})}, out, need);
  // Grouped-query attention: k's heads (4) must divide q's (6); dk and dv
  // have k's and v's shapes, not q's.
  run("k heads that do not divide q's", attrs,
      {t(bf, {2, 6, 8, 64}), t(bf, {2, 6, 8, 64}), t(bf, {2, 4, 8, 64}),
       t(bf, {2, 4, 8, 64})},
      {t(bf, {2, 6, 8, 64}), t(bf, {2, 4, 8, 64}), t(bf, {2, 4, 8, 64})},
      1 << 16);
  run("dk with q's heads", attrs,
      {t(bf, {2, 4, 8, 64}), t(bf, {2, 4, 8, 64}), t(bf, {2, 2, 8, 64}),
       t(bf, {2, 2, 8, 64})},
      {t(bf, {2, 4, 8, 64}), t(bf, {2, 4, 8, 64}), t(bf, {2, 2, 8, 64})},
      1 << 16);
  const bool invalidZero =
      gradWorkspaceStored(attrs, {in[0], in[1], in[2]}) == 0;
  std::printf("%s grad workspace bytes of invalid operands: 0\n",
              invalidZero ? "PASS" : "FAIL");
  ++(invalidZero ? passed : failed);
}

//===----------------------------------------------------------------------===//
// Operands that must be rejected with an "attention: " error.
//===----------------------------------------------------------------------===//

bool runErrorCase(const char *what, const InstrAttrs &attrs,
                  const std::vector<DeviceTensor> &inputs,
                  const DeviceTensor &out) {
  Status st = launchAttentionStored(attrs, inputs, {out}, nullptr);
  const bool ok = !st.isOk() && st.message().rfind("attention: ", 0) == 0;
  std::printf("%s error case: %s -> %s\n", ok ? "PASS" : "FAIL", what,
              st.isOk() ? "(accepted)" : st.message().c_str());
  return ok;
}

/// Adds the outcomes to `passed` and `failed`.
void runErrorCases(int &passed, int &failed) {
  DeviceBuffer buf;
  if (!buf.init(1 << 20, 0)) {
    ++failed;
    return;
  }
  auto count = [&](bool ok) { ++(ok ? passed : failed); };
  void *p = buf.ptr();
  const DType bf = DType::BF16;
  InstrAttrs attrs;
  attrs.ints = {0};
  attrs.floats = {0.125};
  auto t = [&](DType dt, Shape s) { return DeviceTensor{dt, std::move(s), p}; };
  count(runErrorCase("two operands", attrs,
                     {t(bf, {2, 8, 64}), t(bf, {2, 8, 64})},
                     t(bf, {2, 8, 64})));
  count(
      runErrorCase("head dim 320", attrs,
                   {t(bf, {2, 8, 320}), t(bf, {2, 8, 320}), t(bf, {2, 8, 320})},
                   t(bf, {2, 8, 320})));
  InstrAttrs badCausal = attrs;
  badCausal.ints = {2};
  count(runErrorCase("causal = 2", badCausal,
                     {t(bf, {2, 8, 64}), t(bf, {2, 8, 64}), t(bf, {2, 8, 64})},
                     t(bf, {2, 8, 64})));
  count(runErrorCase("i32 operands", attrs,
                     {t(DType::I32, {2, 8, 64}), t(DType::I32, {2, 8, 64}),
                      t(DType::I32, {2, 8, 64})},
                     t(DType::I32, {2, 8, 64})));
  count(runErrorCase(
      "k dtype differs", attrs,
      {t(bf, {2, 8, 64}), t(DType::F16, {2, 8, 64}), t(bf, {2, 8, 64})},
      t(bf, {2, 8, 64})));
  count(runErrorCase(
      "mask does not broadcast", attrs,
      {t(bf, {2, 8, 64}), t(bf, {2, 6, 64}), t(bf, {2, 6, 64}), t(bf, {8, 5})},
      t(bf, {2, 8, 64})));
  count(runErrorCase("wrong result shape", attrs,
                     {t(bf, {2, 8, 64}), t(bf, {2, 6, 64}), t(bf, {2, 6, 32})},
                     t(bf, {2, 8, 64})));
  count(runErrorCase("no attributes", InstrAttrs(),
                     {t(bf, {2, 8, 64}), t(bf, {2, 8, 64}), t(bf, {2, 8, 64})},
                     t(bf, {2, 8, 64})));
  // Grouped-query attention: k's and v's heads must be one divisor of q's.
  count(runErrorCase(
      "k heads that do not divide q's", attrs,
      {t(bf, {2, 6, 8, 64}), t(bf, {2, 4, 8, 64}), t(bf, {2, 4, 8, 64})},
      t(bf, {2, 6, 8, 64})));
  count(runErrorCase(
      "k and v heads differ", attrs,
      {t(bf, {2, 6, 8, 64}), t(bf, {2, 3, 8, 64}), t(bf, {2, 2, 8, 64})},
      t(bf, {2, 6, 8, 64})));
  InstrAttrs seqFirst = attrs;
  seqFirst.ints = {0, 1};
  count(runErrorCase(
      "sequence-first k heads that do not divide q's", seqFirst,
      {t(bf, {2, 8, 6, 64}), t(bf, {2, 8, 4, 64}), t(bf, {2, 8, 4, 64})},
      t(bf, {2, 8, 6, 64})));
}

} // namespace

int main(int argc, char **argv) {
  int devices = 0;
  const cudaError_t err = cudaGetDeviceCount(&devices);
  if (err != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n(%s)\n",
                err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
    return 77; // ctest: skipped
  }
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
    std::printf("device 0: %s, sm_%d%d, %d SMs\n", prop.name, prop.major,
                prop.minor, prop.multiProcessorCount);
  const std::string filter = argc > 1 ? argv[1] : "";

  int passed = 0, failed = 0;
  const std::vector<Case> cases = makeCases();
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!filter.empty() && caseName(cases[i]).find(filter) == std::string::npos)
      continue;
    if (gContextLost) {
      std::printf("SKIP %s (CUDA context lost)\n", caseName(cases[i]).c_str());
      ++failed;
      continue;
    }
    if (runCase(cases[i], 1234567 + i))
      ++passed;
    else
      ++failed;
    std::fflush(stdout);
  }
  const std::vector<Case> gradCases = makeGradCases();
  for (size_t i = 0; i < gradCases.size(); ++i) {
    const std::string name = "grad " + caseName(gradCases[i]);
    if (!filter.empty() && name.find(filter) == std::string::npos)
      continue;
    if (gContextLost) {
      std::printf("SKIP %s (CUDA context lost)\n", name.c_str());
      ++failed;
      continue;
    }
    if (runGradCase(gradCases[i], 7654321 + i))
      ++passed;
    else
      ++failed;
    std::fflush(stdout);
  }
  if (!gContextLost && (filter.empty() || filter == "error")) {
    runErrorCases(passed, failed);
    runGradErrorCases(passed, failed);
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
