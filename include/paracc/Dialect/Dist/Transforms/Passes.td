//===- Passes.td - Sharding and partitioning passes --------*- tablegen -*-===//

#ifndef PARACC_DIALECT_DIST_TRANSFORMS_PASSES_TD
#define PARACC_DIALECT_DIST_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TensorParallelPass : Pass<"paracc-tensor-parallel", "ModuleOp"> {
  let summary = "Shard the weights of MLP and attention blocks, Megatron style";
  let description = [{
    Finds the weight matmuls of the graph (MatMul and Gemm, the weight given
    directly or through a transpose) and decides, without user annotations,
    how each is split over the tensor-parallel mesh axis:

    - column-parallel (the weight's output features split): a matmul whose
      input does not come from another column-parallel matmul without a
      normalization in between: the first MLP matmul(s), Q/K/V projections,
      the LM head;
    - row-parallel (input features split, partial sums, one all-reduce): a
      matmul whose input derives from a column-parallel output: the second
      MLP matmul and the attention output projection;
    - replicated: when the split would break a head (K/V projections of
      grouped-query attention whose KV heads do not divide the axis, or
      heads that do not divide it) or a dimension does not divide.

    Convolutions (`graph.conv`, one group) take roles by the same rule
    over channels: column-parallel (kernel dim 0, the output channels, and
    the bias) where the input is whole, row-parallel (kernel dim 1, the
    input channels; partial sums all-reduced) after a column-parallel
    output, so a ResNet block's convolutions pair up; grouped or depthwise
    convolutions and channels that do not divide stay whole.

    Fused projections whose output is split (GPT-2's c_attn into q/k/v, a
    fused gate/up) are first split into one projection per piece, so the
    heads of q, k and v each land on their own ranks. The embedding table is
    split along the vocabulary (masked lookup + all-reduce), biases follow
    their matmul's output features. The decisions are recorded on the ops
    (`dist.tp_role`, `dist.tp_reason`) for --explain; the weights get
    `dist.shardings` annotations that propagation spreads.

    Before (mesh tp = 2):
    ```mlir
    %w1 = graph.weight "fc1" : tensor<64x256xf32>
    %h = graph.matmul %x, %w1 : (tensor<2x16x64xf32>, tensor<64x256xf32>) -> tensor<2x16x256xf32>
    %a = graph.gelu %h : tensor<2x16x256xf32>
    %w2 = graph.weight "fc2" : tensor<256x64xf32>
    %y = graph.matmul %a, %w2 : (tensor<2x16x256xf32>, tensor<256x64xf32>) -> tensor<2x16x64xf32>
    ```
    After: `fc1` is annotated `#dist.sharding<{}, {tp}>` (column) and
    `fc2` `#dist.sharding<{tp}, {}>` (row).

    A `graph.conv` is recorded `replicated`, with the reason: its channels
    are not split (not implemented), so every rank computes it whole.
  }];
  let options = [
    Option<"axis", "axis", "std::string", "\"tp\"",
           "The mesh axis to split over">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect",
                           "::mlir::paracc::graph::GraphDialect"];
}

def SequenceParallelPass : Pass<"paracc-sequence-parallel", "ModuleOp"> {
  let summary = "Shard the residual stream along the sequence (Megatron SP)";
  let description = [{
    Annotates the inputs and outputs of every layer_norm / rms_norm with
    their sequence dimension split over the tensor-parallel axis. The
    partitioner then turns the all-reduce after each row-parallel matmul into
    a reduce-scatter along the sequence, runs the norms, residual adds and
    dropouts on the local tokens, and all-gathers before the next
    column-parallel matmul: the same bytes as the all-reduce, activations
    between blocks divided by the axis size.

    Before (tp = 2): `%n = graph.layer_norm %r, ...` on
    `tensor<2x16x64xf32>`. After: `%r` and `%n` carry
    `#dist.sharding<{?}, {tp}, {?}>` (the `?` dims stay open).
  }];
  let options = [
    Option<"axis", "axis", "std::string", "\"tp\"",
           "The mesh axis to split the sequence over">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect"];
}

def ContextParallelPass : Pass<"paracc-context-parallel", "ModuleOp"> {
  let summary = "Split the sequence of the whole model over the context-parallel axis";
  let description = [{
    Annotates the sequence dimension of every attention's queries, keys,
    values and result with the context-parallel axis; propagation carries
    the split through the position-wise ops before and after (projections,
    norms, the MLP, embeddings, the loss), so each rank holds a contiguous
    block of the sequence for the whole model. Attention's queries stay
    split while its keys and values are whole: partitioning all-gathers K
    and V over the axis and gives each causal attention its block's first
    position (`start`); in training, the keys' and values' gradients are
    partial sums over the axis and are reduce-scattered back.

    With `attention=alltoall` (Ulysses) the attention's operands and result
    are split by heads instead and the norms' activations by the sequence:
    partitioning moves q, k and v from the sequence to the heads with one
    all-to-all each (and the result back), and each rank attends over the
    whole sequence with its share of the heads (contiguous layout: every
    rank does the same work); the heads must divide over the axis.

    With `attention=ring` the annotations are all-gather's and the module
    gets `dist.ring_axis`: partitioning keeps K and V split and passes each
    rank's block around the ring (`dist.ring_shift`), each query chunk
    attending to every block as it arrives (`graph.attention_with_stats`
    with the block's relative `start`) and merging it into what it has
    (`graph.attention_merge`); the backward passes K, V and their
    accumulating gradients around again, each block's gradient rebuilt from
    the forward's merged statistics (`graph.attention_grad {key_block}`).
    No rank ever holds more than two blocks of K/V.

    Every attention's sequence must divide over the axis, and a model
    without an attention is refused (there is no sequence to split).

    Before (cp = 2): `%y = graph.attention %q, %k, %v` on
    `tensor<1x4x64x16xf32>`. After: `%q`, `%k`, `%v` and `%y` carry
    `#dist.sharding<{?}, {?}, {cp}, {?}>`.
  }];
  let options = [
    Option<"axis", "axis", "std::string", "\"cp\"",
           "The mesh axis to split the sequence over">,
    Option<"layout", "layout", "::mlir::paracc::CpLayout",
           "::mlir::paracc::CpLayout::Zigzag",
           "The sequence's layout over the axis: zigzag or contiguous">,
    Option<"attention", "attention", "::mlir::paracc::CpAttention",
           "::mlir::paracc::CpAttention::AllGather",
           "Attention over the split sequence: allgather, alltoall or ring">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect"];
}

def DataParallelPass : Pass<"paracc-data-parallel", "ModuleOp"> {
  let summary = "Split the batch of every input over the data-parallel axis";
  let description = [{
    Annotates dimension 0 (the batch) of every function argument with the
    data-parallel axis; propagation carries it through the program. Losses
    that reduce over the batch become partial sums combined by an
    all-reduce (means are divided by the global count).

    Before (dp = 2): `func.func @main(%ids: tensor<4x16xi64>)`. After: the
    argument carries `dist.sharding = #dist.sharding<{dp}, {?}>`. Under
    hybrid sharding the batch is split over the replica axis, then dp
    (`{dpr, dp}`); with an expert-parallel axis, over dp, then it
    (`{dp, ep}`).
  }];
  let options = [
    Option<"axis", "axis", "std::string", "\"dp\"",
           "The mesh axis to split the batch over">,
    Option<"replicaAxis", "replica-axis", "std::string", "\"dpr\"",
           "Hybrid sharding's replica axis, which splits the batch before "
           "`axis` when the mesh has it">,
    Option<"expertAxis", "expert-axis", "std::string", "\"ep\"",
           "Expert parallelism's axis, which splits the batch after `axis` "
           "when the mesh has it (its ranks are data-parallel for every op "
           "but the experts)">,
    Option<"microbatchAxis", "microbatch-axis", "std::string", "\"\"",
           "A virtual last mesh axis that also splits the batch, into the "
           "micro-batches of paracc-interleave-microbatches">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect"];
}

def ExpertParallelPass : Pass<"paracc-expert-parallel", "ModuleOp"> {
  let summary = "Split the experts of every mixture of experts over the expert-parallel axis";
  let description = [{
    Expert parallelism places a mixture of experts' experts on different
    ranks: member i of a group of n along the axis holds experts
    `[i E/n, (i+1) E/n)` of each `graph.moe_experts`' stacked `w_in` and
    `w_out`, while every other op is data parallel over the axis
    (`paracc-data-parallel` splits the batch over it too, as Megatron and
    DeepSpeed place expert parallelism within the data-parallel ranks).
    This pass annotates dim 0 (the experts) of each `graph.moe_experts`'
    `w_in` and `w_out` with the axis and names the axis on the module
    (`dist.expert_axis`). Partitioning then makes each such op (and its
    gradient) a `dist.expert_parallel_moe`, which sends each token to the
    ranks holding the experts it picked and brings the results back, so
    each rank keeps its experts' weights, gradients and optimizer state
    only. The experts' weight gradients are complete over the axis and
    reduced over the data-parallel ranks that share them.

    The experts must divide over the axis, and a model without a
    `graph.moe_experts` is refused (there are no experts to split). An
    axis of size 1 does nothing.

    `load-imbalance` (r >= 1) is the routing the cost model is to assume:
    the busiest member receives r times an even share of the slots. Above
    1 the module records it (`dist.expert_load_imbalance`) and partitioning
    gives it to each `dist.expert_parallel_moe`, whose traffic and experts'
    work the step prediction and explain then scale by it.

    Before (ep = 2): `graph.moe_experts %x, %i, %w, %w_in, %w_out` with
    `%w_in : tensor<4x96x32xf32>`. After: `%w_in` and `%w_out` carry
    `#dist.sharding<{ep}, {?}, {?}>`, and the module
    `dist.expert_axis = "ep"`.
  }];
  let options =
      [Option<"axis", "axis", "std::string", "\"ep\"",
              "The mesh axis to split the experts over">,
       Option<"loadImbalance", "load-imbalance", "double", "1.0",
              "The busiest member's load over an even share that the cost "
              "model assumes (>= 1)">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect"];
}

def UserShardingsPass : Pass<"paracc-user-shardings", "ModuleOp"> {
  let summary = "Follow the shardings a front end asked for";
  let description = [{
    A front end may say how some inputs and weights are to be split (JAX
    does, with Shardy's `sdy.sharding` on its arguments; the StableHLO
    importer keeps them as `dist.user_sharding`, on `graph.weight` ops and
    function arguments). After the tensor, sequence and data parallelism
    annotations, this pass makes each such sharding the value's closed
    annotation, replacing what those passes chose, so propagation and
    partitioning follow it. A sharding that names an axis the mesh does not
    have is not followed (a warning names it); one whose axes do not divide
    their dimension is an error.

    Before (tp = 2): `%w = graph.weight "w" {dist.user_sharding =
    #dist.sharding<{tp}, {}>}` (tensor parallelism chose `<{}, {tp}>`).
    After: `dist.shardings = [#dist.sharding<{tp}, {}>]`.
  }];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect"];
}

def PropagateShardingPass : Pass<"paracc-propagate-sharding", "ModuleOp"> {
  let summary = "Give every value a sharding from the annotated ones";
  let description = [{
    Spreads the annotations (weights from tensor parallelism, sequence and
    batch annotations) through every op by its factor-based sharding rule,
    forward and backward, until nothing changes. Each value dimension holds
    the axes of the strongest source reaching it: closed annotations first,
    then propagated ones by distance; ties go to weights. An axis is used at
    most once per op and per tensor; a dimension that does not divide stays
    replicated. Afterwards every value has a `#dist.sharding` (replicated if
    nothing reached it).
  }];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect"];
}

def PartitionPass : Pass<"paracc-partition", "ModuleOp"> {
  let summary = "Rewrite the sharded program into one SPMD program on shards";
  let description = [{
    Every op is rewritten to work on local shards: its factors take their
    axes from the op's operands (weights first) and results, operands are
    resharded to what the factors require, and the results are resharded to
    their recorded shardings. Resharding inserts the collectives: a partial
    sum becomes an all-reduce, or a reduce-scatter when the target splits a
    dimension over the same axes; a split dimension that must be whole is
    all-gathered; a replicated value that must be split is sliced locally
    (`dist.local_shard`, no communication). A vocabulary-split embedding
    becomes a masked local lookup plus a partial sum; a row-parallel Gemm
    adds its bias once, after the reduction; means over a split dimension
    are divided by the global count. A partial sum whose only user is a
    reshape to a value split over the partial axes (the exporters' Gemm on
    flattened tokens, reshaped to `[B, S, H]` for a sequence-split residual
    stream) stays partial through the reshape and is reduce-scattered after
    it, since no block of the flattened dim is a sequence shard.

    The result has local types and, on arguments, results, weights and
    state, the global type and sharding the executable needs
    (`dist.global_type`, and `dist.shard_dims`: per dimension the indices of
    the module mesh's axes it is split over).
  }];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect",
                           "::mlir::paracc::graph::GraphDialect"];
}

def ShardOptimizerStatePass
    : Pass<"paracc-shard-optimizer-state", "ModuleOp"> {
  let summary = "Shard optimizer state over the data-parallel axis (ZeRO stage 1)";
  let description = [{
    Runs on a training step whose shardings are propagated (after
    `--paracc-propagate-sharding`, before `--paracc-partition`) and changes
    recorded shardings only, so that partitioning places the collectives of
    ZeRO stage 1: each data-parallel rank keeps and updates one shard of
    every parameter's optimizer state.

    For every `graph.adamw` / `graph.sgd` whose parameter has recorded
    sharding `S`, the pass picks the first dimension whose local size (after
    `S`'s splits) divides by the size of `axis` and appends `axis` to it:
    `S'`. The gradient operand, the moments (`graph.state`) and the update's
    results get `S'`; so do the elementwise ops (`graph.cast`,
    `graph.mul`) between the gradient and its sum of squares for the
    gradient norm, and the operands of a `graph.add` of gradient parts (a
    tied embedding) that only the add reads. The update is marked
    `dist.sharded_update`. Partitioning then
    - reduce-scatters the gradient (a partial sum over `axis`) instead of
      all-reducing it,
    - sums the squares of each rank's shard and all-reduces the sum (the
      norm and clipping see the whole gradient),
    - takes the rank's slice of the parameter (`dist.local_shard`, no
      communication), updates only that slice and its moments, and
    - all-gathers the updated slice into the parameter's buffer
      (`graph.assign` writes its buffer's sharding).
    The update is elementwise, so the step computes what the unsharded one
    does (f32, up to the order of the norm's sums). A parameter without
    such a dimension (a scalar, or sizes that do not divide) keeps whole
    moments and an all-reduced gradient. Parameters stay whole on every
    rank (stage 1): with `--precision bf16` the f32 parameter is both the
    master weight and what the forward casts, so it is not sharded.

    Before (mesh `dp = 2`, after propagation):
    ```mlir
    %w = graph.weight "w" {dist.shardings = [#dist.sharding<{}, {}>]} : tensor<8x2xf32>
    %dw = graph.gemm %x, %dy {trans_a = true, dist.shardings = [#dist.sharding<{}, {}>]} ...
    %m = graph.state "w.exp_avg" {dist.shardings = [#dist.sharding<{}, {}>]} : tensor<8x2xf32>
    %p2, %m2, %v2 = graph.adamw %w, %dw, %m, %v, ... {dist.shardings = [...<{}, {}>, ...]}
    ```
    After: `%dw`, `%m`, `%v` and the three results carry
    `#dist.sharding<{dp}, {}>` and the update `dist.sharded_update`; once
    partitioned:
    ```mlir
    %g = dist.reduce_scatter %dw_partial over ["dp"] dim = 0 : tensor<8x2xf32> -> tensor<4x2xf32>
    %ws = dist.local_shard %w ... -> tensor<4x2xf32>
    %p2, %m2, %v2 = graph.adamw %ws, %g, %m, %v, ... : tensor<4x2xf32>
    %p = dist.all_gather %p2 over ["dp"] dim = 0 : tensor<4x2xf32> -> tensor<8x2xf32>
    graph.assign "w", %p : tensor<8x2xf32>
    ```
  }];
  let options = [
    Option<"axis", "axis", "std::string", "\"dp\"",
           "The data-parallel mesh axis to shard the optimizer state over "
           "(a missing axis, or one of size 1, leaves the step alone)">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect"];
}

def ShardParametersPass : Pass<"paracc-shard-parameters", "ModuleOp"> {
  let summary = "Place ZeRO's gradient reductions and shard parameters (ZeRO stages 1-3)";
  let description = [{
    Runs on the partitioned training step of `--paracc-shard-optimizer-state`
    (before `--paracc-pipeline`), in which every sharded update
    (`dist.sharded_update`) reads `dist.local_shard` of its weight and its
    updated shard is all-gathered and written to the whole buffer. What it
    does depends on `stage`:

    - **1** (optimizer state sharded): under micro-batches (a pipeline), a
      gradient is partitioned as a reduce-scatter over `axis` per
      micro-batch followed by a sum over the micro-batch axis. Stage 1
      sums the micro-batches' whole gradients first and reduce-scatters
      once per step: `all_reduce(reduce_scatter(g) over dp) over mb`
      becomes `reduce_scatter(all_reduce(g) over mb) over dp`.
    - **2** (gradients sharded too): the reduce-scatter per micro-batch and
      the sum of the shards stay as partitioning wrote them, so no whole
      gradient outlives its micro-batch. Without micro-batches stages 1
      and 2 are the same program.
    - **3** (parameters sharded too): each such weight's buffer becomes this
      rank's shard (`dist.shard_dims` of its moments; the weight is marked
      `dist.sharded_parameter`). Its reads are split into the forward's
      (the ops the loss depends on) and the backward's; each phase reads a
      `dist.all_gather` of the shard (marked `dist.parameter_gather` with
      the phase and `dist.gather_unit` with the layer), so the gathered
      copy lives from its gather to the phase's last read. Views of the
      weight (`graph.cast`, `graph.transpose`, `graph.reshape`) are copied
      into each phase after its gather; a weight read only through one
      `graph.cast` (bf16 compute) is cast on the shard and gathered cast.
      Layers come from the residual stream of the forward (as for
      pipeline stages); a forward gather is issued before the first read
      of the layer `prefetch` layers earlier, a backward gather before the
      first backward read of the layer `prefetch` layers later, so that it
      overlaps their compute. The update reads the shard and the write
      takes the updated shard; the all-gather after the update is gone.
      A step without layers is an error.

    Before (stage 3, mesh `dp = 2`):
    ```mlir
    %w = graph.weight "w" {... dist.shard_dims = [array<i32>, array<i32>]} : tensor<8x6xf32>
    %ws = dist.local_shard %w to <{dp}, {}> : tensor<8x6xf32> -> tensor<4x6xf32>
    %y = graph.matmul %x, %w ...            // forward
    %dx = graph.gemm %dy, %w {trans_b = true} ...   // backward
    %p, %m2, %v2 = graph.adamw %ws, %g, %m, %v, ... : tensor<4x6xf32>
    %pw = dist.all_gather %p over ["dp"] dim = 0 : tensor<4x6xf32> -> tensor<8x6xf32>
    graph.assign "w", %pw : tensor<8x6xf32>
    ```
    After:
    ```mlir
    %w = graph.weight "w" {dist.sharded_parameter = "dp", dist.shard_dims = [array<i32: 0>, array<i32>] ...} : tensor<4x6xf32>
    %wf = dist.all_gather %w over ["dp"] dim = 0 {dist.parameter_gather = "forward", dist.gather_unit = 1 : i64} ...
    %y = graph.matmul %x, %wf ...
    %wb = dist.all_gather %w over ["dp"] dim = 0 {dist.parameter_gather = "backward", ...} ...
    %dx = graph.gemm %dy, %wb {trans_b = true} ...
    %p, %m2, %v2 = graph.adamw %w, %g, %m, %v, ... : tensor<4x6xf32>
    graph.assign "w", %p : tensor<4x6xf32>
    ```
  }];
  let options = [
    Option<"stage", "stage", "int64_t", "1",
           "ZeRO stage: 1 (optimizer state), 2 (and gradients), 3 (and "
           "parameters)">,
    Option<"axis", "axis", "std::string", "\"dp\"",
           "The data-parallel mesh axis the updates are sharded over (a "
           "missing axis, or one of size 1, leaves the step alone)">,
    Option<"microbatchAxis", "microbatch-axis", "std::string", "\"mb\"",
           "The virtual mesh axis of the micro-batches">,
    Option<"prefetch", "prefetch", "int64_t", "1",
           "Stage 3: layers ahead at which a parameter's gather is issued "
           "(0: just before its layer)">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect"];
}

def BucketAllReducesPass : Pass<"paracc-bucket-all-reduces", "func::FuncOp"> {
  let summary = "Combine small collectives into buckets, as DDP and FSDP do";
  let description = [{
    After partitioning, every data-parallel weight gradient and every
    tensor-parallel partial sum of the gradient norm is all-reduced on its
    own; with ZeRO each gradient is reduce-scattered (or all-reduced and its
    shard taken) and each updated parameter all-gathered. Consecutive
    collectives of one kind with the same axes (and kind of reduction) and
    element type, each smaller than `bucket-mb` MiB, are combined while none
    of their results is needed before the last of them is issued:
    - all-reduces: the operands flattened and concatenated, reduced by one
      all-reduce placed at the last member, and sliced back;
    - reduce-scatters and all-gathers: the operands joined as rows, rank
      r's shard of each in row r (the split dim transposed to the front
      first when dims of more than one element precede it), one collective
      along dim 0, each member's shard or whole sliced back (and transposed
      back).
    A result read only through views (`dist.local_shard`, reshape,
    transpose, cast) or written to state (`graph.assign`, which takes
    effect at the step's end) counts as needed where the views' other
    users are; those views and writes move after the bucket. A bucket
    closes at `bucket-mb` MiB (0 turns the pass off), or before a member
    whose placement would delay a result that an earlier op reads. A
    bucket is issued as soon as its last operand exists, so its
    communication overlaps the rest of the backward.

    Before:
    ```mlir
    %a = dist.all_reduce %ga over ["dp"] : tensor<4x8xf32>
    %b = dist.all_reduce %gb over ["dp"] : tensor<8xf32>
    ```
    After:
    ```mlir
    %0 = graph.reshape %ga : tensor<4x8xf32> -> tensor<32xf32>
    %1 = graph.reshape %gb : tensor<8xf32> -> tensor<8xf32>
    %2 = graph.concat %0, %1 {axis = 0 : i64} : (tensor<32xf32>, tensor<8xf32>) -> tensor<40xf32>
    %3 = dist.all_reduce %2 over ["dp"] : tensor<40xf32>
    %4 = graph.slice %3 ... -> tensor<32xf32>
    ...
    ```
  }];
  let options = [
    Option<"bucketMb", "bucket-mb", "double", "25.0",
           "Bucket size in MiB (0: no buckets)">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect",
                           "::mlir::paracc::graph::GraphDialect"];
}

def PersistentWeightCopiesPass
    : Pass<"paracc-persistent-weight-copies", "func::FuncOp"> {
  let summary = "Keep mixed precision's bf16 weights between steps, written by "
                "the optimizer";
  let description = [{
    A mixed-precision training step casts every f32 master weight to bf16
    for its forward (`graph.cast`, grouped into `graph.foreach_cast`) and
    updates the f32 weight at its end (`graph.foreach_adamw`): the cast
    reads all of the parameters again, 4 bytes a parameter in and 2 out,
    although the update had each new value in registers. This pass keeps
    the bf16 weights as state instead: the cast of weight `w` becomes
    `graph.state "<w>.bf16_copy" {copy_of = "w"}` (the same block and
    sharding as `w`, the narrower type), the update of `w` returns the new
    value's copy as well (`new_param_copies`) and a `graph.assign` writes it
    to that state for the next step. The runtime casts each parameter into
    its copy when the parameters are loaded or restored from a checkpoint
    (checkpoints leave the copies out), so the copy equals the cast of the
    weight at the start of every step and the step's results are unchanged.

    A weight takes part when its update is a `graph.foreach_adamw` whose
    new value is assigned to the weight itself (not a ZeRO shard of it)
    and it is read through one narrowing cast. Runs after
    `--paracc-group-parameter-updates`.

    Before:
    ```mlir
    %w = graph.weight "w" : tensor<8x2xf32>
    %w16 = graph.foreach_cast %w, ... : ... -> tensor<8x2xbf16>, ...
    %r:3 = graph.foreach_adamw %lr, %step, %s {...} [%w, %dw, %m, %v : tensor<8x2xf32>, tensor<8x2xbf16>]
    graph.assign "w", %r#0 : tensor<8x2xf32>
    ```
    After:
    ```mlir
    %w = graph.weight "w" : tensor<8x2xf32>
    %w16 = graph.state "w.bf16_copy" {copy_of = "w"} : tensor<8x2xbf16>
    %r:4 = graph.foreach_adamw %lr, %step, %s {...} [%w, %dw, %m, %v : tensor<8x2xf32>, tensor<8x2xbf16> -> bf16]
    graph.assign "w", %r#0 : tensor<8x2xf32>
    graph.assign "w.bf16_copy", %r#3 : tensor<8x2xbf16>
    ```
  }];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def FoldReductionAddendsPass
    : Pass<"paracc-fold-reduction-addends", "func::FuncOp"> {
  let summary = "Add a row-parallel layer's bias and residual before its all-reduce";
  let description = [{
    After partitioning, a row-parallel product is all-reduced and then its
    bias and the residual stream are added: two passes over the activation
    on every rank. When the product (a matmul by a 2-D weight, or a plain
    `graph.linear`) feeds only the all-reduce (a sum), and the reduction
    feeds only the bias add and/or the residual add, the product becomes a
    `graph.linear` with that bias and residual and
    `dist.addends_on_first = <the reduction's axes>`: the group's first
    member adds them in the product's epilogue, the others do not, and the
    all-reduce's sum is the same. The addends must be defined before the
    product (a weight or constant defined after it moves up). A reshape between the bias add and the residual add (the
    exporters' Gemm on flattened tokens) moves after the all-reduce, and the
    residual is reshaped to the product's shape. Runs in the lowering
    pipeline, before precision conversion.

    Before:
    ```mlir
    %p = graph.matmul %h, %w : (tensor<8x128xf32>, tensor<128x64xf32>) -> tensor<8x64xf32>
    %s = dist.all_reduce %p over ["tp"] : tensor<8x64xf32>
    %t = graph.add %s, %b : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
    %y = graph.add %x, %t : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    ```
    After:
    ```mlir
    %p = graph.linear %h, %w, %b residual %x {dist.addends_on_first = ["tp"]} : (...) -> tensor<8x64xf32>
    %y = dist.all_reduce %p over ["tp"] : tensor<8x64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect",
                           "::mlir::paracc::graph::GraphDialect"];
}

def InterleaveMicrobatchesPass
    : Pass<"paracc-interleave-microbatches", "ModuleOp"> {
  let summary = "Run micro-batches interleaved so collectives overlap compute";
  let description = [{
    Runs after partitioning over a mesh whose last axis (`axis`, "mb") is
    virtual: the data-parallel pass split the batch over it too, so the
    partitioned program handles one micro-batch. This pass makes every rank
    run all of them and removes the axis from the mesh:

    - arguments split over the axis become whole (their dim times the
      number of micro-batches) and are sliced per micro-batch; results split
      over it are concatenated back;
    - every op that depends on the batch is cloned once per micro-batch;
      the rest (weights, constants, weight layouts) stays shared;
    - the clones are interleaved by segments that end at a collective:
      micro-batch 0's segment k, micro-batch 1's segment k, ..., then
      segment k + 1. The runtime runs collectives on a communication stream,
      so micro-batch 0's all-reduce overlaps micro-batch 1's matrix
      products;
    - `dist.axis_index` and `dist.local_shard` over the axis become the
      micro-batch's constant index and a slice; an all-reduce over the axis
      (a data-parallel loss) becomes a sum of the clones (plus an
      all-reduce over the remaining axes). Other collectives over the axis
      are rejected.

    Before (mesh `[tp = 2, mb = 2]`, local batch 4):
    ```mlir
    func.func @main(%x: tensor<4x64xf32> {dist.shard_dims = [array<i32: 1>, array<i32>]}) -> ...
      %y = graph.matmul %x, %w ...
      %z = dist.all_reduce %y over ["tp"] ...
    ```
    After (mesh `[tp = 2]`):
    ```mlir
    func.func @main(%x: tensor<8x64xf32> {dist.shard_dims = [array<i32>, array<i32>]}) -> ...
      %x0 = graph.slice %x, starts = [0, 0], limits = [4, 64], ...
      %x1 = graph.slice %x, starts = [4, 0], limits = [8, 64], ...
      %y0 = graph.matmul %x0, %w ...
      %z0 = dist.all_reduce %y0 over ["tp"] ...
      %y1 = graph.matmul %x1, %w ...
      %z1 = dist.all_reduce %y1 over ["tp"] ...
    ```
  }];
  let options = [
    Option<"axis", "axis", "std::string", "\"mb\"",
           "The virtual micro-batch mesh axis">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect",
                           "::mlir::paracc::graph::GraphDialect"];
}

def PipelinePass : Pass<"paracc-pipeline", "ModuleOp"> {
  let summary = "One function per pipeline stage, micro-batches in schedule order";
  let description = [{
    Runs after partitioning over a mesh with a pipeline axis (`axis`, "pp")
    and, last, the virtual micro-batch axis (`microbatch-axis`, "mb", which
    the data-parallel pass split the batch over). Every op carries its
    stage (`dist.stage`, from `--paracc-pipeline-stages`); an op without one
    (made by a later pass) runs on the latest stage among its operands'.
    The function becomes one function per stage, `@<name>_stage<s>`, with
    `dist.pipeline_function = "<name>"`, `dist.pipeline_stage = s` and
    `dist.pipeline_axis`; the ranks whose coordinate on the axis is `s` run
    that one, and the micro-batch axis leaves the mesh.

    - Per-micro-batch ops (those that depend on a micro-batch's inputs) are
      cloned once per micro-batch on their stage: an *action* is one
      stage's ops for one micro-batch, and each stage runs its actions in
      the schedule's order (`schedule`: `gpipe`, `1f1b`, `zb-h1` or
      `interleaved`; for a forward program all but `interleaved` run the
      micro-batches in order).
    - Interleaved (`virtual-stages` = v > 1): `dist.stage` names one of
      p x v virtual stages and rank k mod p runs virtual stage k, so a
      rank's function holds its v model chunks; each action is one chunk's
      ops for one micro-batch (`pipeline_action` gets the chunk third), and
      a value crosses only between chunks on different ranks (the last
      rank's chunk sends on to the first rank's next one).
    - A value one stage computes and another uses crosses in a `dist.send`
      / `dist.recv` pair over the pipeline axis, with its own tag.
    - Ops that depend on no micro-batch and only on weights, constants and
      inputs are made on every stage that uses them (a transposed tied
      embedding on the last stage). An all-reduce over the micro-batch axis
      (a loss's mean) becomes the sum of the micro-batches' values, on their
      stage, and what follows it runs once, after the micro-batches, on the
      stage holding its largest operand; a state update reaches every stage
      that reads the buffer.
    - The last stage returns every result; results split over the
      micro-batches are concatenated.

    The order of each stage's sends and receives is one global order: the
    schedule is simulated (an action lasts as many units as it has ops; it
    starts when its stage is free and its inputs have arrived), and every
    stage runs its actions and transfers sorted by simulated time. No two
    stages can then wait on each other, even with sends that wait for their
    receiver (Gloo, NCCL).

    Before (mesh `[pp = 2, mb = 2]`, `%x` split over `mb`):
    ```mlir
    func.func @main(%x: tensor<2x8xf32> {...}) -> tensor<2x8xf32> {
      %h = graph.matmul %x, %w1 {dist.stage = 0 : i64} ...
      %y = graph.matmul %h, %w2 {dist.stage = 1 : i64} ...
      return %y
    }
    ```
    After:
    ```mlir
    func.func @main_stage0(%x: tensor<4x8xf32>) attributes {dist.pipeline_stage = 0 : i64, ...} {
      %x0 = graph.slice %x ...   %h0 = graph.matmul %x0, %w1
      dist.send %h0 over ["pp"] to = 1 tag = 0
      %x1 = graph.slice %x ...   %h1 = graph.matmul %x1, %w1
      dist.send %h1 over ["pp"] to = 1 tag = 1
      return
    }
    func.func @main_stage1(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {dist.pipeline_stage = 1 : i64, ...} {
      %h0 = dist.recv over ["pp"] from = -1 tag = 0   %y0 = graph.matmul %h0, %w2
      %h1 = dist.recv over ["pp"] from = -1 tag = 1   %y1 = graph.matmul %h1, %w2
      %y = graph.concat %y0, %y1 {axis = 0 : i64}
      return %y
    }
    ```
  }];
  let options = [
    Option<"axis", "axis", "std::string", "\"pp\"",
           "The pipeline mesh axis">,
    Option<"microbatchAxis", "microbatch-axis", "std::string", "\"mb\"",
           "The virtual micro-batch mesh axis (last)">,
    Option<"schedule", "schedule", "::mlir::paracc::PipelineSchedule",
           "::mlir::paracc::kDefaultPipelineSchedule",
           "The order of each stage's micro-batches: gpipe, 1f1b (default), "
           "zb-h1 or interleaved">,
    Option<"virtualStages", "virtual-stages", "int64_t", "1",
           "Model chunks per rank under the interleaved schedule">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect",
                           "::mlir::paracc::graph::GraphDialect"];
}

def SetMeshPass : Pass<"paracc-set-mesh", "ModuleOp"> {
  let summary = "Give the module its device mesh, with the micro-batch axis";
  let description = [{
    Sets the module's `dist.mesh` from `mesh` ("dp2,tp4": axes major to
    minor, each a name among dp, tp and pp and a size; "" or "1" leaves the
    module without a mesh, one rank). The mesh gets a virtual last axis `mb`
    of `microbatches` when it has a pp axis (the pipeline's micro-batches,
    even 1: `--paracc-pipeline` turns the axis into each stage's actions)
    or when `microbatches` > 1 without pp (micro-batches interleaved on
    every rank, which `--paracc-interleave-microbatches` removes). A mesh
    the module already has is replaced.

    With `mesh=dp2,pp2 microbatches=4`, the module gets
    ```mlir
    module attributes {dist.mesh = #dist.mesh<[dp = 2, pp = 2, mb = 4]>}
    ```

    Hybrid sharding (`data-shards` N, ZeRO's `--zero-shard-size`): the dp
    axis of size D becomes two, `dpr` of D / N (replicas, outer) and `dp`
    of N (consecutive ranks): ZeRO shards over `dp` and data parallelism
    splits the batch over both, so gradients are reduce-scattered within a
    `dp` group and all-reduced across `dpr`. `mesh=dp4,tp2 data-shards=2`
    gives `#dist.mesh<[dpr = 2, dp = 2, tp = 2]>`; N equal to D leaves the
    mesh as it is.
  }];
  let options = [
    Option<"mesh", "mesh", "std::string", "\"\"",
           "Device mesh, e.g. dp2,tp4 (empty or 1: one rank)">,
    Option<"microbatches", "microbatches", "int64_t", "1",
           "Micro-batches per step: the pipeline's under pp, else "
           "interleaved (in [1, 64])">,
    Option<"dataShards", "data-shards", "int64_t", "0",
           "Hybrid sharding: the dp ranks of one shard group (0: all); the "
           "rest of dp becomes the replica axis dpr">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect"];
}

def PipelineStagesPass : Pass<"paracc-pipeline-stages", "ModuleOp"> {
  let summary = "Cut the forward graph into balanced pipeline stages";
  let description = [{
    Runs on the module's forward function (after `--paracc-compile`, before
    tensor-parallel annotation) and gives every op but weights, constants
    and state (which are replicated where used) the pipeline stage it runs
    on, `dist.stage`; the module gets the plan, `dist.pipeline_plan`.

    The layers come from the graph's structure, never from names: the
    residual stream is the longest chain of `graph.add` ops each of which
    adds to the previous one's result. Its adds cut the block into segments
    and consecutive segments form a layer by the smallest period with which
    their op multisets repeat (2 for GPT-2 and Llama: the attention half and
    the MLP half). The units of the cut are the prologue (the ops up to the
    stream's input: embeddings), the layers and the epilogue (final norm,
    head, loss). Ops belong to a unit by their position in the block, so an
    op's stage is never before its operands'; ops computed from weights and
    constants alone (a tied head's transposed embedding, rotary tables) go
    to the first unit that uses them.

    A dynamic program over the cut points splits the units into `stages`
    (x `virtual-stages` under the interleaved schedule, where rank s holds
    the virtual stages s, s + p, ...: `dist.stage` is then the virtual
    stage) contiguous groups minimising the slowest stage's modelled time: the
    roofline time of its ops (FLOPs and bytes at the `rates` of the device;
    forward plus backward, about 3x the forward for products and attention
    and 2x for the rest, when `training`) plus the activation bytes its
    outgoing cut sends (and, when training, the gradient its incoming cut
    sends back) at the link rate. With `memory-budget`, no stage (no rank's chunks
    together, interleaved) may hold more parameter bytes (x4 when training:
    gradients and two AdamW moments). A stage may be just the prologue or the epilogue (a large
    vocabulary head). `ranges` ("0-2,3-5,6-7", inclusive layer indices, one
    range per stage) gives the cut instead; the prologue joins the first
    stage, the epilogue the last.

    The plan records per stage its layers, parameters, FLOPs, predicted
    time, memory and sent bytes, the same for Megatron's equal-layer cut,
    the bubble formula (p - 1) / (m + p - 1) ((p - 1) / (v m + p - 1)
    interleaved) and the bubble of the `schedule` over `microbatches`
    micro-batches as simulated with the stages' times. `--explain` prints
    it.

    Before (`stages=2`), a residual chain of four layers, two adds each:
    ```mlir
    %e = graph.gather %wte, %ids {axis = 0 : i64} : ...
    %a0 = graph.add %e, %attn0 : ...
    %m0 = graph.add %a0, %mlp0 : ...
    ...
    %m3 = graph.add %a3, %mlp3 : ...
    %logits = graph.matmul %n, %head : ...
    ```
    After (the head is light here, so the layers split evenly):
    ```mlir
    %e = graph.gather %wte, %ids {axis = 0 : i64, dist.stage = 0 : i64} : ...
    %a0 = graph.add %e, %attn0 {dist.stage = 0 : i64} : ...
    ...
    %m3 = graph.add %a3, %mlp3 {dist.stage = 1 : i64} : ...
    %logits = graph.matmul %n, %head {dist.stage = 1 : i64} : ...
    ```
    and on the module, `dist.pipeline_plan` with `stages` = two
    dictionaries, `layers = array<i64: 0, 1>` and `array<i64: 2, 3>` (the
    first with `prologue = true`, the second with `epilogue = true`), each
    with `params`, `param_bytes`, `flops`, `predicted_ms`, `memory_bytes`
    and `sent_bytes`; `uniform_stages` alike; `layers`, `schedule`,
    `microbatches`, `virtual_stages`, `training`, `rates`,
    `bubble_formula`, `bubble_predicted` and `uniform_bubble_predicted`.
  }];
  let options = [
    Option<"stages", "stages", "int64_t", "1",
           "Number of pipeline stages (1: leave the program alone)">,
    Option<"ranges", "ranges", "std::string", "\"\"",
           "Layer ranges per stage, e.g. \"0-2,3-5,6-7\" (empty: balance "
           "the modelled time)">,
    Option<"microbatches", "microbatches", "int64_t", "1",
           "Micro-batches per step, for the bubble">,
    Option<"schedule", "schedule", "::mlir::paracc::PipelineSchedule",
           "::mlir::paracc::kDefaultPipelineSchedule",
           "Pipeline schedule: gpipe, 1f1b (default), zb-h1 or interleaved">,
    Option<"virtualStages", "virtual-stages", "int64_t", "1",
           "Model chunks per rank under the interleaved schedule (the graph "
           "is cut into stages x virtual-stages)">,
    Option<"training", "training", "bool", "false",
           "Balance forward plus backward and count gradients and optimizer "
           "state in memory">,
    Option<"rates", "rates", "std::string", "\"cpu\"",
           "Device rates of the cost model: cpu, h200, h100, a100 or "
           "a100-40g">,
    Option<"memoryBudget", "memory-budget", "int64_t", "0",
           "Per-rank memory budget in bytes (0: none)">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect"];
}

def RecomputePass : Pass<"paracc-recompute", "ModuleOp"> {
  let summary = "Recompute activations in the backward instead of keeping them";
  let description = [{
    Runs on a differentiated training step whose shardings are propagated
    (after `--paracc-propagate-sharding`, before `--paracc-partition`), so
    that sizes are one rank's. The forward is what the step's first result
    (the loss) depends on; its *saved* values are those the backward (or
    anything else after it) reads. Under a pipeline (`dist.pipeline_plan`),
    each op's saved bytes count once per micro-batch its stage keeps in
    flight, and each stage has its own budget.

    `policy` picks the values to drop:
    - `none`: keep everything (the pass only records the plan);
    - `full`: inside the layers (found from the residual stream as
      `--paracc-pipeline-stages` does), keep only each layer's input, the
      stream's value where the layer starts, and recompute the rest of the
      layer (Megatron's full recompute); the prologue and epilogue keep
      theirs;
    - `selective`: inside the layers, drop, in program order, each value
      whose recompute (with the drops before it) reruns only cheap ops (at
      most 10 modelled FLOPs per result element: norms, activation
      functions, softmax, elementwise ops, copies), so no product or
      attention runs twice;
    - `auto`: the least recompute time (the cost model's roofline time at
      `rates`) whose kept bytes fit `budget` on every stage, chosen
      greedily by added time per byte freed (Planner `chooseRecompute`),
      anywhere in the forward but the layers' inputs.
    Layer inputs are kept by full, selective and auto even where the
    backward does not read them, so that a layer's recompute starts from
    its own input and its copies die with its backward. Values the step
    returns and ops that are not pure are always kept.

    Each dropped value is computed again right before the first backward
    op that reads it, from kept values (recursively recomputing what those
    need that is not kept); every later reader shares that copy. Copies
    carry `dist.recomputed` and the op's own attributes (its sharding and
    stage). The module gets `dist.recompute_plan` with `policy`,
    `saved_bytes` and `kept_bytes` (one rank's, the largest stage's),
    `recomputed_ops`, `recomputed_flops`, `step_flops` (forward and
    backward, modelled) and `recomputed_ms`.

    Before (`policy=full`), a layer whose backward reads `%n` and `%h`:
    ```mlir
    %n = graph.layer_norm %x, %g, %b ...
    %h = graph.matmul %n, %w ...
    %y = graph.add %x, %h ...              // the next layer's input
    ...
    %dw = graph.matmul %nT, %dy ...        // reads %n
    ```
    After:
    ```mlir
    %n = graph.layer_norm %x, %g, %b ...   // forward, freed after %h
    ...
    %n2 = graph.layer_norm %x, %g, %b {dist.recomputed} ...
    %dw = graph.matmul %n2T, %dy ...
    ```
  }];
  let options = [
    Option<"policy", "policy", "::mlir::paracc::RecomputePolicy",
           "::mlir::paracc::RecomputePolicy::None",
           "What to recompute: none, full, selective or auto">,
    Option<"budget", "budget", "int64_t", "-1",
           "auto: the saved-activation bytes each rank may keep (-1: no "
           "limit)">,
    Option<"rates", "rates", "std::string", "\"cpu\"",
           "Device rates of the cost model: cpu, h200, h100, a100 or "
           "a100-40g">,
  ];
  let dependentDialects = ["::mlir::paracc::dist::DistDialect"];
}

#endif // PARACC_DIALECT_DIST_TRANSFORMS_PASSES_TD
