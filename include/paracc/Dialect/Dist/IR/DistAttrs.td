//===- DistAttrs.td - Mesh and sharding attributes ---------*- tablegen -*-===//

#ifndef PARACC_DIALECT_DIST_IR_DISTATTRS_TD
#define PARACC_DIALECT_DIST_IR_DISTATTRS_TD

include "paracc/Dialect/Dist/IR/DistDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Dist_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Dist_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Dist_MeshAttr : Dist_Attr<"Mesh", "mesh"> {
  let summary = "A device mesh: named axes with sizes";
  let description = [{
    `#dist.mesh<[dp = 2, tp = 4]>`: axis names are identifiers, unique;
    sizes are positive. Ranks are row-major over the axes.
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::StringAttr">:$axisNames,
    ArrayRefParameter<"int64_t">:$axisSizes);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of ranks.
    int64_t getNumRanks() const;
    /// Index of the axis named `name`, if any.
    std::optional<unsigned> getAxisIndex(::llvm::StringRef name) const;
    /// Size of the axis named `name` (1 if absent).
    int64_t getAxisSize(::llvm::StringRef name) const;
    /// Product of the sizes of `axes`.
    int64_t getGroupSize(::llvm::ArrayRef<::mlir::StringAttr> axes) const;
  }];
}

def Dist_ShardingAttr : Dist_Attr<"Sharding", "sharding"> {
  let summary = "How a tensor is split over mesh axes";
  let description = [{
    `#dist.sharding<{dp}, {}, {tp}>`: dimension 0 is split over axis `dp`,
    dimension 1 is replicated, dimension 2 is split over `tp`. A dimension
    split over several axes lists them major to minor (`{dp, tp}`).
    `partial = [tp]` marks a value whose shards are partial sums over `tp`.
    An axis appears at most once in a sharding. In annotations a dimension
    written `{?}` is open: propagation decides it.
  }];
  // dims: an ArrayAttr (one per dimension) of ArrayAttrs of StringAttr axis
  // names; partial: an ArrayAttr of StringAttr. Use the accessors below.
  let parameters = (ins "::mlir::ArrayAttr":$dims, "::mlir::ArrayAttr":$partial);
  let builders = [
    AttrBuilder<(ins
        "::llvm::ArrayRef<::llvm::SmallVector<::mlir::StringAttr>>":$dims,
        CArg<"::llvm::ArrayRef<::mlir::StringAttr>", "{}">:$partial)>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// A sharding of `rank` dims that replicates everything.
    static ShardingAttr getReplicated(::mlir::MLIRContext *ctx, int64_t rank);
    int64_t getRank() const { return getDims().size(); }
    /// The partial axes.
    ::llvm::SmallVector<::mlir::StringAttr> getPartialAxes() const;
    /// Whether no dimension is split and nothing is partial.
    bool isReplicated() const;
    /// Whether dimension `d` is open (`{?}`).
    bool isDimOpen(int64_t d) const;
    /// The axes of dimension `d` (empty when replicated or open).
    ::llvm::SmallVector<::mlir::StringAttr> getDimAxes(int64_t d) const;
    /// All axes used by dimensions (not partial), in dimension order.
    ::llvm::SmallVector<::mlir::StringAttr> getUsedAxes() const;
    /// The local shape of `global` on each rank; fails when a dim does not
    /// divide.
    ::mlir::FailureOr<::llvm::SmallVector<int64_t>>
    getLocalShape(MeshAttr mesh, ::llvm::ArrayRef<int64_t> global) const;
    /// This sharding without partial axes.
    ShardingAttr withoutPartial() const;
  }];
}

def Dist_TensorParallelRole : I32EnumAttr<"TensorParallelRole",
    "how tensor parallelism splits an op", [
      I32EnumAttrCase<"Column", 0, "column">,
      I32EnumAttrCase<"Row", 1, "row">,
      I32EnumAttrCase<"Replicated", 2, "replicated">,
      I32EnumAttrCase<"VocabParallel", 3, "vocab_parallel">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::paracc::dist";
}

def Dist_TensorParallelRoleAttr
    : EnumAttr<Dist_Dialect, Dist_TensorParallelRole, "tp_role"> {
  let summary = "What tensor parallelism made of an op";
  let description = [{
    `#dist.tp_role<column>`: the op's weight is split by output columns
    (its result is split, its input replicated); `row`: by input rows (its
    result is a partial sum); `replicated`: left whole (`dist.tp_reason`
    says why); `vocab_parallel`: a gather from an embedding split over the
    vocabulary. `--explain` reports it with `dist.tp_reason`.
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// The plans of the pipeline and recompute passes
//===----------------------------------------------------------------------===//

/// A double (as an APFloat, which hashes and compares bitwise), printed
/// exactly: the shortest form that reads back the same.
def Dist_F64Parameter : APFloatParameter<"a 64-bit float"> {
  let parser = [{ [&]() -> ::mlir::FailureOr<::llvm::APFloat> {
    double value = 0;
    if ($_parser.parseFloat(value))
      return ::mlir::failure();
    return ::llvm::APFloat(value);
  }() }];
  let printer = [{ $_printer.printFloat($_self) }];
}

/// `true` or `false`.
def Dist_BoolParameter : AttrOrTypeParameter<"bool", "a boolean"> {
  let parser = [{ [&]() -> ::mlir::FailureOr<bool> {
    if (succeeded($_parser.parseOptionalKeyword("true")))
      return true;
    if (failed($_parser.parseKeyword("false")))
      return ::mlir::failure();
    return false;
  }() }];
  let printer = [{ $_printer << ($_self ? "true" : "false") }];
}

/// One of the compiler's option enums (Compiler/Options.h), as a string in
/// the option table's spelling.
class Dist_OptionEnumParameter<string cppType, string desc>
    : AttrOrTypeParameter<cppType, desc> {
  let parser = [{ [&]() -> ::mlir::FailureOr<}] # cppType # [{> {
    std::string name;
    ::llvm::SMLoc loc = $_parser.getCurrentLocation();
    if ($_parser.parseString(&name))
      return ::mlir::failure();
    if (auto value = ::mlir::paracc::parseOptionValue<}] # cppType # [{>(name))
      return *value;
    $_parser.emitError(loc) << ::mlir::paracc::badOptionValue<}] # cppType #
      [{>(name);
    return ::mlir::failure();
  }() }];
  let printer = [{ $_printer << '"' << ::mlir::paracc::stringifyOption($_self) << '"' }];
}

def Dist_StageSummaryAttr : Dist_Attr<"StageSummary", "stage_summary"> {
  let summary = "One stage of a pipeline plan";
  let description = [{
    What `--paracc-pipeline-stages` predicts for one (virtual) stage:
    its layers (inclusive; -1, -1 for a stage of just the prologue or the
    epilogue), whether it holds the prologue (embeddings) or the epilogue
    (final norm, head, loss), the parameters its ops read (elements and
    bytes; a tied embedding counts in both stages that read it), its
    modelled FLOPs (forward, plus backward when training), its predicted
    time for the whole batch in milliseconds, its parameter memory (x4 when
    training: gradients and two AdamW moments) and the activation bytes its
    outgoing cut sends.

    ```mlir
    #dist.stage_summary<first_layer = 0, last_layer = 1, prologue = true,
        epilogue = false, params = 4096, param_bytes = 16384, flops = 65536,
        predicted_ms = 0.25, memory_bytes = 65536, sent_bytes = 2048>
    ```
  }];
  let parameters = (ins "int64_t":$first_layer, "int64_t":$last_layer,
      Dist_BoolParameter:$prologue, Dist_BoolParameter:$epilogue,
      "int64_t":$params, "int64_t":$param_bytes, "int64_t":$flops,
      Dist_F64Parameter:$predicted_ms, "int64_t":$memory_bytes,
      "int64_t":$sent_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
}

/// A bracketed list of stage summaries.
def Dist_StageSummaryListParameter
    : ArrayRefParameter<"::mlir::paracc::dist::StageSummaryAttr",
                        "stage summaries"> {
  let parser = [{ [&]() -> ::mlir::FailureOr<
      ::llvm::SmallVector<::mlir::paracc::dist::StageSummaryAttr>> {
    ::llvm::SmallVector<::mlir::paracc::dist::StageSummaryAttr> stages;
    if ($_parser.parseCommaSeparatedList(
            ::mlir::AsmParser::Delimiter::Square, [&]() -> ::mlir::ParseResult {
              ::mlir::paracc::dist::StageSummaryAttr stage;
              if ($_parser.parseCustomAttributeWithFallback(stage))
                return ::mlir::failure();
              stages.push_back(stage);
              return ::mlir::success();
            }))
      return ::mlir::failure();
    return stages;
  }() }];
  let printer = [{
    $_printer << '[';
    ::llvm::interleaveComma($_self, $_printer,
        [&](::mlir::paracc::dist::StageSummaryAttr stage) {
          $_printer.printStrippedAttrOrType(stage);
        });
    $_printer << ']';
  }];
}

def Dist_PipelinePlanAttr : Dist_Attr<"PipelinePlan", "pipeline_plan"> {
  let summary = "The pipeline stages' cut and its predicted bubble";
  let description = [{
    What `--paracc-pipeline-stages` chose, for `--explain`: the stages in
    pipeline order (p x v under the interleaved schedule: the virtual
    stages; stage k runs on rank k mod p), the same for Megatron's
    equal-layer cut (`uniform_stages`, for comparison), the model's layers,
    the micro-batches, the schedule, the model chunks per rank, whether the
    step trains, the device rates the times come from, the bubble formula
    (p - 1) / (m + p - 1) ((p - 1) / (v m + p - 1) interleaved) and the
    bubble of the schedule simulated with the stages' times, for the chosen
    and for the equal-layer cut.

    ```mlir
    #dist.pipeline_plan<stages = [<first_layer = 0, ...>, <...>],
        uniform_stages = [<...>, <...>], layers = 4, microbatches = 4,
        schedule = "1f1b", virtual_stages = 1, training = true,
        rates = "h200", bubble_formula = 0.42857142857142855,
        bubble_predicted = 0.43, uniform_bubble_predicted = 0.45>
    ```
  }];
  let parameters = (ins Dist_StageSummaryListParameter:$stages,
      Dist_StageSummaryListParameter:$uniform_stages, "int64_t":$layers,
      "int64_t":$microbatches,
      Dist_OptionEnumParameter<"::mlir::paracc::PipelineSchedule",
                               "a pipeline schedule">:$schedule,
      "int64_t":$virtual_stages, Dist_BoolParameter:$training,
      StringRefParameter<"the device rates">:$rates,
      Dist_F64Parameter:$bubble_formula, Dist_F64Parameter:$bubble_predicted,
      Dist_F64Parameter:$uniform_bubble_predicted);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dist_RecomputePlanAttr : Dist_Attr<"RecomputePlan", "recompute_plan"> {
  let summary = "What the recompute pass chose";
  let description = [{
    What `--paracc-recompute` chose, for `--explain` and auto recompute's
    budget loop: the policy, the saved activation bytes per rank without
    recompute and with the choice (the stage that keeps most, its
    in-flight micro-batches counted), auto's budget for the live activation
    bytes (-1: none), the most of them live at once as the pass simulated
    the step, the ops emitted again, the modelled FLOPs of the reruns and of
    the whole step, the reruns' predicted time in milliseconds and the
    device rates it comes from.

    ```mlir
    #dist.recompute_plan<policy = "selective", saved_bytes = 1048576,
        kept_bytes = 524288, budget_bytes = -1,
        activation_peak_bytes = 786432, recomputed_ops = 12,
        recomputed_flops = 1.5e+06, step_flops = 3.0e+08,
        recomputed_ms = 0.01, rates = "cpu">
    ```
  }];
  let parameters = (ins
      Dist_OptionEnumParameter<"::mlir::paracc::RecomputePolicy",
                               "a recompute policy">:$policy,
      "int64_t":$saved_bytes, "int64_t":$kept_bytes, "int64_t":$budget_bytes,
      "int64_t":$activation_peak_bytes, "int64_t":$recomputed_ops,
      Dist_F64Parameter:$recomputed_flops, Dist_F64Parameter:$step_flops,
      Dist_F64Parameter:$recomputed_ms,
      StringRefParameter<"the device rates">:$rates);
  let assemblyFormat = "`<` struct(params) `>`";
}

/// A bracketed list of integers: `[1, 2, 3]`.
def Dist_I64ListParameter : ArrayRefParameter<"int64_t", "integers"> {
  let parser = [{ [&]() -> ::mlir::FailureOr<::llvm::SmallVector<int64_t>> {
    ::llvm::SmallVector<int64_t> values;
    if ($_parser.parseCommaSeparatedList(
            ::mlir::AsmParser::Delimiter::Square, [&]() -> ::mlir::ParseResult {
              return $_parser.parseInteger(values.emplace_back());
            }))
      return ::mlir::failure();
    return values;
  }() }];
  let printer = [{
    $_printer << '[';
    ::llvm::interleaveComma($_self, $_printer);
    $_printer << ']';
  }];
}

def Dist_ZeroPlanAttr : Dist_Attr<"ZeroPlan", "zero_plan"> {
  let summary = "What ZeRO stage 3 sharded and when it gathers";
  let description = [{
    What `--paracc-shard-parameters` did, for `--explain`: the stage, the
    data-parallel axis, the prefetch distance in layers, the model's layers,
    and at stage 3 the weights whose buffers became shards and the gathers
    of one step in
    program order, per phase: for each, the unit (layer) whose reads it
    serves, the unit before whose first read it is issued, and its
    gathered bytes (one rank's copy; units: 0 the prologue, 1.. the
    layers, then the epilogue). `gather_peak_bytes` is the most gathered
    bytes live at once in the step (each copy from its gather to its
    phase's last read).

    ```mlir
    #dist.zero_plan<stage = 3, axis = "dp", prefetch = 1, layers = 2,
        sharded_parameters = 28, forward_units = [0, 1, 2, 3],
        forward_issued = [0, 0, 1, 2], forward_bytes = [65536, ...],
        backward_units = [3, 2, 1], backward_issued = [3, 3, 2],
        backward_bytes = [...], gather_peak_bytes = 262144>
    ```
  }];
  let parameters = (ins "int64_t":$stage,
      StringRefParameter<"the data-parallel axis">:$axis, "int64_t":$prefetch,
      "int64_t":$layers, "int64_t":$sharded_parameters,
      Dist_I64ListParameter:$forward_units,
      Dist_I64ListParameter:$forward_issued,
      Dist_I64ListParameter:$forward_bytes,
      Dist_I64ListParameter:$backward_units,
      Dist_I64ListParameter:$backward_issued,
      Dist_I64ListParameter:$backward_bytes,
      "int64_t":$gather_peak_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Dist_PipelinePhase : I32EnumAttr<"PipelinePhase",
    "what a pipeline action does", [
      I32EnumAttrCase<"Forward", 0, "forward">,
      I32EnumAttrCase<"Backward", 1, "backward">,
      I32EnumAttrCase<"Weight", 2, "weight">,
      I32EnumAttrCase<"Once", 3, "once">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::paracc::dist";
}

def Dist_PipelineActionAttr : Dist_Attr<"PipelineAction", "pipeline_action"> {
  let summary = "The pipeline action an op belongs to";
  let description = [{
    Set by `--paracc-pipeline` on each op of a stage function: the
    micro-batch, the phase (`forward`; `backward`, the input gradients, and
    under zb-h1 only those; `weight`, zb-h1's deferred weight gradients;
    `once`, the once-per-step part, whose micro-batch is 0) and, under the
    interleaved schedule, the rank's model chunk (0 otherwise, and then not
    printed). The executable keeps the actions for timelines and profiles.

    ```mlir
    %y = graph.matmul %x, %w {dist.pipeline_action =
        #dist.pipeline_action<microbatch = 1, phase = backward>} : ...
    ```
  }];
  let parameters = (ins "int64_t":$microbatch,
      EnumParameter<Dist_PipelinePhase>:$phase,
      DefaultValuedParameter<"int64_t", "0">:$chunk);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // PARACC_DIALECT_DIST_IR_DISTATTRS_TD
