//===- DistOps.td - Collective operations ------------------*- tablegen -*-===//
//
// Collectives of SPMD programs. A group is named by mesh axes: the ranks
// that share every coordinate except those along the listed axes. Every
// constraint has a negative test in test/Dialect/Dist/invalid.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_DIST_IR_DISTOPS_TD
#define PARACC_DIALECT_DIST_IR_DISTOPS_TD

include "paracc/Dialect/Dist/IR/DistAttrs.td"
include "paracc/Dialect/Dist/IR/DistInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Dist_Tensor : StaticShapeTensorOf<[F16, BF16, F32, F64, I1, I8, I16, I32,
                                       I64, UI8, UI16, UI32, UI64]>;

/// An op that communicates: CollectiveOpInterface (CollectiveTraffic.cpp),
/// with `overridden` naming the interface's defaulted methods it defines.
class Dist_CollectiveOp<string mnemonic, list<Trait> traits = [],
                        list<string> overridden = []>
    : Dist_Op<mnemonic,
              !listconcat(traits,
                          [DeclareOpInterfaceMethods<CollectiveOpInterface,
                                                     overridden>])>;

def Dist_AllReduceOp : Dist_CollectiveOp<"all_reduce",
    [AllTypesMatch<["x", "result"]>]> {
  let summary = "Sum (or max) over a group";
  let description = [{
    Every member of the group receives the elementwise reduction of the
    members' `x`. This is what a row-parallel matmul's partial sums need.

    ```mlir
    %y = dist.all_reduce %x over ["tp"] : tensor<2x64x256xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$x, StrArrayAttr:$axes,
                       DefaultValuedStrAttr<StrAttr, "sum">:$kind);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat = "$x `over` $axes attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Dist_AllGatherOp : Dist_CollectiveOp<"all_gather"> {
  let summary = "Concatenate the members' tensors along a dimension";
  let description = [{
    The result is the members' `x` concatenated along `dim` in group order;
    its `dim` is the group size times the operand's.

    ```mlir
    %y = dist.all_gather %x over ["tp"] dim = 1
        : tensor<2x16x256xf32> -> tensor<2x64x256xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$x, StrArrayAttr:$axes, I64Attr:$dim);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat =
      "$x `over` $axes `dim` `=` $dim attr-dict `:` type($x) `->` type($result)";
  let hasVerifier = 1;
}

def Dist_ReduceScatterOp : Dist_CollectiveOp<"reduce_scatter"> {
  let summary = "Sum over a group, each member keeping one piece";
  let description = [{
    The elementwise sum of the members' `x`, split along `dim` into as many
    pieces as the group has members; member i keeps piece i. Sequence
    parallelism replaces a row-parallel all-reduce by this op along the
    sequence.

    ```mlir
    %y = dist.reduce_scatter %x over ["tp"] dim = 1
        : tensor<2x64x256xf32> -> tensor<2x16x256xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$x, StrArrayAttr:$axes, I64Attr:$dim);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat =
      "$x `over` $axes `dim` `=` $dim attr-dict `:` type($x) `->` type($result)";
  let hasVerifier = 1;
}

def Dist_AllToAllOp : Dist_CollectiveOp<"all_to_all"> {
  let summary = "Exchange pieces: split one dim, concatenate another";
  let description = [{
    `x` is split along `split_dim` into one piece per member; piece j goes to
    member j, and the pieces each member receives are concatenated along
    `concat_dim` in group order. It moves a sharding from one dimension to
    another.
  }];
  let arguments = (ins Dist_Tensor:$x, StrArrayAttr:$axes, I64Attr:$split_dim,
                       I64Attr:$concat_dim);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat = [{
    $x `over` $axes `split_dim` `=` $split_dim `concat_dim` `=` $concat_dim
    attr-dict `:` type($x) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Dist_BroadcastOp : Dist_CollectiveOp<"broadcast",
    [AllTypesMatch<["x", "result"]>]> {
  let summary = "Every member receives the root member's tensor";
  let description = [{
    Every member of the group receives the `x` of member `root` (an index
    within the group, major to minor over `axes`, as `dist.axis_index`
    numbers them); the other members' `x` is not read. `root` must lie in
    [0, group size).

    ```mlir
    // tp4: every rank of a tp group gets the x of its group's member 1.
    %y = dist.broadcast %x over ["tp"] root = 1 : tensor<2x64x256xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$x, StrArrayAttr:$axes, I64Attr:$root);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat =
      "$x `over` $axes `root` `=` $root attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Dist_SendOp : Dist_CollectiveOp<"send",
    [MemoryEffects<[MemRead, MemWrite]>], ["isPointToPoint"]> {
  let summary = "Send a tensor to the member `to` places further in the group";
  let description = [{
    Point-to-point transfer between pipeline stages, written SPMD style:
    every rank runs the op, and the member whose index within the group is
    `i` sends `x` to the member with index `i + to`. There is no wrap-around:
    on a member where `i + to` lies outside [0, group size) the op does
    nothing. `to` is nonzero and |`to`| < group size.

    Pairing: a send with offset `to` and tag `t` on member `i` is received
    by the `dist.recv` with `from = -to`, the same axes and tag `t` on
    member `i + to`, and that recv's result type must be the type of `x`.
    Between two members, sends and their recvs pair in program order, so
    both must run them in the same order (NCCL pairs by order alone; the
    tag, default 0, keeps unrelated transfers apart on the CPU). A send may
    wait until its peer reaches the matching recv, so a program must not
    make two members each wait on the other: "send to the next stage, then
    receive from the previous" unwinds from the last stage, which has no one
    to send to.

    At the ends of the group: with `to = 1` the last member sends nothing,
    and with `from = -1` the first member receives zeros. For a pipeline
    over `pp = 4` (members 0..3):

    ```mlir
    // Member i (i < 3) sends its activation to member i + 1.
    dist.send %act over ["pp"] to = 1 : tensor<8x256xf32>
    // Member i (i > 0) receives member i - 1's; member 0 gets zeros.
    %in = dist.recv over ["pp"] from = -1 : tensor<8x256xf32>
    // Gradients flow back on their own tag: member i sends to i - 1.
    dist.send %grad over ["pp"] to = -1 tag = 1 : tensor<8x256xf32>
    %g = dist.recv over ["pp"] from = 1 tag = 1 : tensor<8x256xf32>
    ```

    The op has no result; its memory effect keeps it from being erased or
    reordered with other sends and recvs.
  }];
  let arguments = (ins Dist_Tensor:$x, StrArrayAttr:$axes, I64Attr:$to,
                       DefaultValuedAttr<I64Attr, "0">:$tag);
  let assemblyFormat = [{
    $x `over` $axes `to` `=` $to (`tag` `=` $tag^)? attr-dict `:` type($x)
  }];
  let hasVerifier = 1;
}

def Dist_RecvOp : Dist_CollectiveOp<"recv",
    [MemoryEffects<[MemRead, MemWrite]>], ["isPointToPoint"]> {
  let summary = "Receive a tensor from the member `from` places away";
  let description = [{
    The counterpart of `dist.send`: the member whose index within the group
    is `i` receives the tensor that member `i + from` sends with
    `to = -from` and the same tag (default 0). A member where `i + from`
    lies outside [0, group size) has no peer and its result is zeros.
    `from` is nonzero and |`from`| < group size. See `dist.send` for the
    pairing and ordering rules.

    ```mlir
    // pp4: member i > 0 receives from member i - 1; member 0 gets zeros.
    %y = dist.recv over ["pp"] from = -1 : tensor<8x256xf32>
    ```
  }];
  let arguments = (ins StrArrayAttr:$axes, I64Attr:$from,
                       DefaultValuedAttr<I64Attr, "0">:$tag);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat = [{
    `over` $axes `from` `=` $from (`tag` `=` $tag^)? attr-dict `:`
    type($result)
  }];
  let hasVerifier = 1;
}

def Dist_RingShiftOp : Dist_CollectiveOp<"ring_shift",
    [AllTypesMatch<["x", "result"]>]> {
  let summary = "Rotate a tensor around the group's ring";
  let description = [{
    Every member of the group sends `x` to the member whose group index is
    (its own + `shift`) mod n and returns the `x` that member (its own −
    `shift`) mod n sent: the whole ring moves at once, with wrap-around
    (unlike `dist.send`/`dist.recv`), so no member waits on another's turn.
    `shift` is nonzero and |`shift`| < n. Ring attention (context
    parallelism, `--cp-attention ring`) passes each rank's K/V block to the
    next rank this way, and the gradients of K/V back.

    ```mlir
    // cp4: member i gets member (i - 1) mod 4's block.
    %kv = dist.ring_shift %k over ["cp"] by = 1 : tensor<1x4x512x64xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$x, StrArrayAttr:$axes, I64Attr:$shift);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat =
      "$x `over` $axes `by` `=` $shift attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Dist_LocalShardOp : Dist_Op<"local_shard"> {
  let summary = "This rank's shard of a value every rank holds whole";
  let description = [{
    `x` is the same on every rank along the dimensions that `sharding`
    splits; the result is this rank's block of it. No communication: the
    partitioner uses it where a replicated value (a constant, a replicated
    activation) meets an op that needs it split. The sharding is written
    without its `#dist.sharding` prefix (with it, the parser would read the
    `: type` that follows as the attribute's type) and has no open or
    partial dims.

    ```mlir
    %y = dist.local_shard %x to <{}, {tp}>
        : tensor<64x256xf32> -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$x, Dist_ShardingAttr:$sharding);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat =
      "$x `to` $sharding attr-dict `:` type($x) `->` type($result)";
  let hasVerifier = 1;
}

def Dist_AxisIndexOp : Dist_Op<"axis_index", [Pure]> {
  let summary = "This rank's position within a group";
  let description = [{
    The linear index of the executing rank within its group over `axes`
    (major to minor), as an i64 scalar. Partitioned programs use it to pick
    a rank's slice of a replicated value and to offset vocabulary-parallel
    embedding lookups.
  }];
  let arguments = (ins StrArrayAttr:$axes);
  let results = (outs 0DTensorOf<[I64]>:$result);
  let assemblyFormat = "`over` $axes attr-dict `:` type($result)";
  let hasVerifier = 1;
}

include "paracc/Dialect/Dist/IR/DistExpertOps.td"

#endif // PARACC_DIALECT_DIST_IR_DISTOPS_TD
