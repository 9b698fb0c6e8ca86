//===- Options.h - The compiler's option values, declared once -*- C++ -*-===//
//
// The closed sets of values that paracc's options take (pipeline schedule,
// learning-rate schedule, recompute policy, precision, device, compile
// phase), each an
// enum with one table of spellings. The table serves every front door:
// the tools' command lines and the pass pipelines' options (through the
// llvm::cl::parser specializations below, whose errors name the option and
// list the values), the C API's key=value options (parseOptionValue) and
// the messages and reports that print a value (stringifyOption).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_COMPILER_OPTIONS_H
#define PARACC_COMPILER_OPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace mlir::paracc {

/// The order in which a pipeline's stages run micro-batches.
enum class PipelineSchedule {
  /// Every forward, then every backward (Huang et al. 2019).
  GPipe,
  /// One forward, one backward in the steady state (PipeDream-Flush).
  OneFOneB,
  /// 1F1B with the weight gradients split off to fill bubbles (Qi et al.
  /// 2023, ZB-H1).
  ZeroBubbleH1,
  /// Several model chunks per rank, micro-batches in groups of the stage
  /// count (Narayanan et al. 2021).
  Interleaved,
};

/// What every front door and pass assumes when no schedule is given.
constexpr PipelineSchedule kDefaultPipelineSchedule =
    PipelineSchedule::OneFOneB;

/// The virtual stages (model chunks per rank) that --virtual-stages asks
/// for: 0 means 2 under the interleaved schedule and 1 otherwise.
inline int64_t resolveVirtualStages(PipelineSchedule schedule,
                                    int64_t virtualStages) {
  if (virtualStages != 0)
    return virtualStages;
  return schedule == PipelineSchedule::Interleaved ? 2 : 1;
}

/// The learning rate over the steps of a run.
enum class LrSchedule { Constant, Cosine };

/// What `--recompute` asks for.
enum class RecomputePolicy {
  /// Keep every activation the backward reads.
  None,
  /// Keep each layer's input, recompute the layer in the backward
  /// (Megatron's full recompute, torch.utils.checkpoint per block).
  Full,
  /// Recompute what is cheap to redo and large to keep (norms, activation
  /// functions, softmax and masks); keep the products' outputs and the
  /// residual stream (Korthikanti et al. 2022).
  Selective,
  /// The least recompute time whose kept bytes fit a budget.
  Auto,
};

/// The compute precision: f32, or bf16/f16 with f32 master weights in
/// training.
enum class Precision { F32, BF16, F16 };

/// How context parallelism lays the sequence out over the cp ranks.
enum class CpLayout {
  /// Cut in 2 cp chunks, rank i holding chunks i and 2 cp - 1 - i: every
  /// rank does the same causal attention work.
  Zigzag,
  /// Rank i holds the i-th of cp blocks.
  Contiguous,
};

/// How attention works over a sequence split by context parallelism.
enum class CpAttention {
  /// Each rank's queries against every key: K and V all-gathered over cp.
  AllGather,
  /// Ulysses: q, k, v moved from sequence-split to head-split by an
  /// all-to-all, the attention of cp's share of the heads over the whole
  /// sequence, and back.
  AllToAll,
  /// Ring attention: K/V blocks passed around the cp ring, each attended to
  /// as it arrives and merged by log-sum-exp; the backward passes them (and
  /// their gradients) around again.
  Ring,
};

/// The optimizer of a training step.
enum class OptimizerKind { AdamW, Sgd };

/// Where a program runs: the cost model's rates and auto recompute's
/// default budget follow it.
enum class Device { Auto, Cpu, Gpu };

/// The phases of a compile, in order (buildParaccPipeline): a phase's output
/// is the next one's input, and `--compile-to=PHASE` prints it.
enum class CompilePhase {
  /// The importer's graph-dialect module (nothing run).
  Imported,
  /// Folded, canonicalized, exporters' decompositions fused; training: the
  /// loss added, dropout seeded.
  Cleaned,
  /// The mesh set (with its micro-batch axis); under pp the forward graph
  /// cut into stages.
  Staged,
  /// Sharding annotations of TP, SP, DP and the front end's own.
  Annotated,
  /// Training: the forward in its precision, differentiated.
  Differentiated,
  /// Training: the optimizer's update added, the function named `step`.
  Optimized,
  /// Every value sharded (and ZeRO's optimizer state).
  Propagated,
  /// Training: the activations to recompute chosen and cloned.
  Recomputed,
  /// One SPMD program on shards, with its collectives.
  Partitioned,
  /// One function per pipeline stage, or micro-batches interleaved.
  Pipelined,
  /// Fused and bucketed, in the compute precision: what the executable
  /// writer reads.
  Lowered,
};

/// A parsed device mesh ("dp2,tp4"): its axes, major to minor.
struct MeshSpec {
  struct Axis {
    std::string name;
    int64_t size;
  };
  llvm::SmallVector<Axis> axes;

  /// The size of axis `name` (0: not there).
  int64_t size(llvm::StringRef name) const;
  /// Every rank of the mesh.
  int64_t ranks() const;
  bool empty() const { return axes.empty(); }
};

/// Parses a mesh ("dp2,tp4"; "" or "1": one rank). On failure `error` says
/// why, naming the option as `optionName` (the caller's spelling: "--mesh",
/// "mesh").
std::optional<MeshSpec> parseMeshSpec(llvm::StringRef text,
                                      llvm::StringRef optionName,
                                      std::string &error,
                                      int64_t maxRanks = 4096);

class OptionsBinder;

/// How the model is split over ranks, and its compute precision: the
/// options of every compile, inference and training.
struct ParallelOptions {
  /// The device mesh ("dp2,tp4"; "" one rank; the driver also takes
  /// "auto": the planner chooses).
  std::string mesh;
  /// Sequence parallelism on the tensor-parallel axis.
  bool sequenceParallel = false;
  /// The pipeline's m under pp; in inference without pp, micro-batches
  /// interleaved on every rank.
  int64_t microbatches = 1;
  /// Pipeline stages: "auto" or layer ranges ("0-2,3-5").
  std::string stages = "auto";
  PipelineSchedule schedule = kDefaultPipelineSchedule;
  /// Model chunks per rank under the interleaved schedule (0: 2 there, 1
  /// otherwise).
  int64_t virtualStages = 0;
  /// f32, or bf16/f16 compute (training: with f32 master weights).
  Precision precision = Precision::F32;
  /// The sequence's layout over the cp axis.
  CpLayout cpLayout = CpLayout::Zigzag;
  /// Attention over the cp-split sequence.
  CpAttention cpAttention = CpAttention::AllGather;
  /// Chains of elementwise ops run as one fused kernel
  /// (paracc-fuse-elementwise).
  bool fuseElementwise = true;
  /// Mixtures of experts: each expert takes at most this many even shares
  /// of a sequence's picks (paracc-moe-capacity); 0: dropless.
  double moeCapacityFactor = 0.0;
  /// Expert parallelism: the load of the busiest ep member over an even
  /// share that the cost model, explain and the planner assume (1: even
  /// routing; a capacity factor caps it).
  double moeImbalance = 1.0;
  /// moeImbalance as the plan can see it: at most the capacity factor
  /// (or 1) when there is one, since no expert takes more.
  double effectiveMoeImbalance() const;

  void bindOptions(OptionsBinder &binder);
};

/// What a training step adds to a compile.
struct TrainingOptions {
  /// "" (the model returns its loss), "next-token-ce" or "ce".
  std::string loss;
  /// Parameters matching this regular expression are not trained.
  std::string freeze;
  /// Only parameters matching this regular expression are trained.
  std::string trainOnly;
  /// Freeze the buffers exporters write (running statistics, position
  /// tables); --no-auto-freeze trains them.
  bool autoFreeze = true;
  /// The optimizer and its settings.
  OptimizerKind optimizer = OptimizerKind::AdamW;
  llvm::SmallVector<double, 2> betas = {0.9, 0.999};
  double eps = 1e-8;
  /// Unset: torch's default, 0.01 for AdamW and 0 for SGD.
  std::optional<double> weightDecay;
  double momentum = 0.0;
  /// Clip the gradients' global L2 norm to this (0: no clipping).
  double clipGradNorm = 0.0;
  /// No optimizer: the step returns every parameter's whole gradient (a
  /// gradient check's step). Not an option of the front doors.
  bool gradientsOnly = false;
  /// What to recompute, and (auto) the peak per rank to fit.
  RecomputePolicy recompute = RecomputePolicy::None;
  std::optional<int64_t> memoryBudget;
  /// All-reduce buckets of this many MiB (0: one all-reduce each).
  double bucketMb = 25.0;
  /// ZeRO stage: 0, 1 (optimizer state), 2 (and gradients) or 3 (and
  /// parameters) sharded over the data-parallel axis, which the mesh must
  /// have with size > 1.
  int64_t zero = 0;
  /// ZeRO stage 3: layers ahead at which a parameter's gather is issued.
  int64_t zeroPrefetch = 1;
  /// Mixed precision: keep the bf16 weights as state that the optimizer
  /// writes (paracc-persistent-weight-copies) instead of casting the f32
  /// master weights at every step's start.
  bool weightCopies = true;
  /// Hybrid sharding: ZeRO shards within groups of this many dp ranks and
  /// replicates across them (0: all of dp).
  int64_t zeroShardSize = 0;
  uint64_t dropoutSeed = 0;
  /// Mixtures of experts: the coefficients of the load-balancing loss and
  /// the router z-loss added to the loss (0: left out).
  double moeAuxLoss = 0.0, moeZLoss = 0.0;

  /// The weight decay the optimizer applies.
  double resolvedWeightDecay() const {
    return weightDecay                       ? *weightDecay
           : optimizer == OptimizerKind::Sgd ? 0.0
                                             : 0.01;
  }
  void bindOptions(OptionsBinder &binder);
};

/// One spelling of an option value.
template <typename E> struct OptionSpelling {
  E value;
  const char *name;
};

/// OptionTraits<E>::spellings() is E's table (the first spelling of a value
/// is the one printed); OptionTraits<E>::what names the set in messages.
template <typename E> struct OptionTraits;

template <> struct OptionTraits<PipelineSchedule> {
  static constexpr const char *what = "pipeline schedule";
  static llvm::ArrayRef<OptionSpelling<PipelineSchedule>> spellings();
};
template <> struct OptionTraits<LrSchedule> {
  static constexpr const char *what = "learning-rate schedule";
  static llvm::ArrayRef<OptionSpelling<LrSchedule>> spellings();
};
template <> struct OptionTraits<RecomputePolicy> {
  static constexpr const char *what = "recompute policy";
  static llvm::ArrayRef<OptionSpelling<RecomputePolicy>> spellings();
};
template <> struct OptionTraits<Precision> {
  static constexpr const char *what = "precision";
  static llvm::ArrayRef<OptionSpelling<Precision>> spellings();
};
template <> struct OptionTraits<CpLayout> {
  static constexpr const char *what = "context-parallel layout";
  static llvm::ArrayRef<OptionSpelling<CpLayout>> spellings();
};
template <> struct OptionTraits<CpAttention> {
  static constexpr const char *what = "context-parallel attention";
  static llvm::ArrayRef<OptionSpelling<CpAttention>> spellings();
};
template <> struct OptionTraits<Device> {
  static constexpr const char *what = "device";
  static llvm::ArrayRef<OptionSpelling<Device>> spellings();
};
template <> struct OptionTraits<OptimizerKind> {
  static constexpr const char *what = "optimizer";
  static llvm::ArrayRef<OptionSpelling<OptimizerKind>> spellings();
};
template <> struct OptionTraits<CompilePhase> {
  static constexpr const char *what = "compile phase";
  static llvm::ArrayRef<OptionSpelling<CompilePhase>> spellings();
};

/// The value spelt `name`, or std::nullopt.
template <typename E> std::optional<E> parseOptionValue(llvm::StringRef name) {
  for (const OptionSpelling<E> &s : OptionTraits<E>::spellings())
    if (name == s.name)
      return s.value;
  return std::nullopt;
}

/// The printed spelling of `value`.
template <typename E> llvm::StringRef stringifyOption(E value) {
  for (const OptionSpelling<E> &s : OptionTraits<E>::spellings())
    if (s.value == value)
      return s.name;
  return "?";
}

/// "gpipe, 1f1b, zb-h1 or interleaved".
template <typename E> std::string optionChoices() {
  std::string out;
  auto all = OptionTraits<E>::spellings();
  for (size_t i = 0; i < all.size(); ++i) {
    if (i > 0)
      out += i + 1 == all.size() ? " or " : ", ";
    out += all[i].name;
  }
  return out;
}

/// "'x' is not a pipeline schedule (gpipe, 1f1b, zb-h1 or interleaved)":
/// the message of every front door, after its own name of the option.
template <typename E> std::string badOptionValue(llvm::StringRef name) {
  llvm::StringRef what = OptionTraits<E>::what;
  const char *article = what.find_first_of("aeiou") == 0 ? "an" : "a";
  return "'" + name.str() + "' is not " + article + " " + what.str() + " (" +
         optionChoices<E>() + ")";
}

/// Prints an option enum's spelling (MLIR's pass options print values so).
template <typename E, typename = decltype(OptionTraits<E>::spellings())>
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, E value) {
  return os << stringifyOption(value);
}

/// The llvm::cl parser of an option enum: cl::opt<E> in the tools and
/// Option<E> in pass pipelines parse through E's table.
template <typename E>
class OptionEnumParser : public llvm::cl::basic_parser<E> {
public:
  using llvm::cl::basic_parser<E>::basic_parser;

  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             E &value) {
    if (std::optional<E> v = parseOptionValue<E>(arg)) {
      value = *v;
      return false;
    }
    return option.error(badOptionValue<E>(arg));
  }
  llvm::StringRef getValueName() const override { return "value"; }
  void printOptionDiff(const llvm::cl::Option &option, E value,
                       const llvm::cl::OptionValue<E> &defaultValue,
                       size_t globalWidth) const {
    this->printOptionName(option, globalWidth);
    llvm::outs() << "= " << stringifyOption(value);
    if (defaultValue.hasValue())
      llvm::outs() << " (default: " << stringifyOption(defaultValue.getValue())
                   << ")";
    llvm::outs() << "\n";
  }
  void print(llvm::raw_ostream &os, const E &value) {
    os << stringifyOption(value);
  }
};

} // namespace mlir::paracc

/// llvm::cl's parser of option enum E is OptionEnumParser<E>.
#define PARACC_OPTION_ENUM_PARSER(E)                                          \
  template <>                                                                  \
  class llvm::cl::parser<mlir::paracc::E>                                      \
      : public mlir::paracc::OptionEnumParser<mlir::paracc::E> {              \
  public:                                                                      \
    using OptionEnumParser::OptionEnumParser;                                  \
  };
PARACC_OPTION_ENUM_PARSER(PipelineSchedule)
PARACC_OPTION_ENUM_PARSER(LrSchedule)
PARACC_OPTION_ENUM_PARSER(RecomputePolicy)
PARACC_OPTION_ENUM_PARSER(Precision)
PARACC_OPTION_ENUM_PARSER(Device)
PARACC_OPTION_ENUM_PARSER(CpLayout)
PARACC_OPTION_ENUM_PARSER(CpAttention)
PARACC_OPTION_ENUM_PARSER(CompilePhase)
PARACC_OPTION_ENUM_PARSER(OptimizerKind)
#undef PARACC_OPTION_ENUM_PARSER

#endif // PARACC_COMPILER_OPTIONS_H
