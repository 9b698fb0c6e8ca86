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
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Dist_Tensor : StaticShapeTensorOf<[F16, BF16, F32, F64, I1, I8, I16, I32,
                                       I64, UI8, UI16, UI32, UI64]>;

class Dist_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, traits>;

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

#endif // PARACC_DIALECT_DIST_IR_DISTOPS_TD
