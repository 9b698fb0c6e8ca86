//===- DistInterfaces.td - Sharding rule interface ---------*- tablegen -*-===//

#ifndef PARACC_DIALECT_DIST_IR_DISTINTERFACES_TD
#define PARACC_DIALECT_DIST_IR_DISTINTERFACES_TD

include "mlir/IR/OpBase.td"

def ShardingRuleOpInterface : OpInterface<"ShardingRuleOpInterface"> {
  let cppNamespace = "::mlir::paracc::dist";
  let description = [{
    The factor-based sharding rule of an op (the model is Shardy's
    OpShardingRule and GSPMD): the op's iteration space is a set of factors;
    every operand and result dimension is the product of some factors, major
    to minor. A factor sharded over mesh axes splits every dimension it
    appears in. Parallel factors shard freely; sharding a reduction factor
    leaves the results as partial sums over its axes; need-replication
    factors must not be sharded. Propagation and partitioning use only this
    rule, never the op's class.
  }];
  let methods = [
    InterfaceMethod<"Returns the op's sharding rule.",
      "::mlir::paracc::dist::OpShardingRule", "getShardingRule", (ins)>,
  ];
}

def CollectiveOpInterface : OpInterface<"CollectiveOpInterface"> {
  let cppNamespace = "::mlir::paracc::dist";
  let description = [{
    A collective or point-to-point transfer over a group of ranks named by
    mesh axes (every `dist` op that communicates). The cost model, the
    --explain report, the step prediction and the pipeline and micro-batch
    passes read a collective's group, message and traffic through this
    interface, never through an op's class or an attribute's name.
  }];
  let methods = [
    InterfaceMethod<"The mesh axes that name the group (major to minor).",
      "::mlir::ArrayAttr", "getGroupAxes", (ins), [{}],
      [{ return $_op.getAxesAttr(); }]>,
    InterfaceMethod<[{The bytes of the tensor it works on: the input of an
      all-reduce, reduce-scatter, all-to-all, broadcast or send, the output
      of an all-gather or recv.}],
      "int64_t", "getMessageBytes", (ins)>,
    InterfaceMethod<[{The bytes each member sends over links in a group of
      `groupSize` ranks (ring algorithms; a send's message; none for a recv,
      whose send counts them).}],
      "double", "getTrafficBytes", (ins "int64_t":$groupSize)>,
    InterfaceMethod<"How the traffic follows from the message, for reports.",
      "::llvm::StringRef", "getTrafficFormula", (ins)>,
    InterfaceMethod<[{Whether the bytes go to one peer (a link's rate) rather
      than through a group collective (the collective bus rate).}],
      "bool", "isPointToPoint", (ins), [{}], [{ return false; }]>,
  ];
}

#endif // PARACC_DIALECT_DIST_IR_DISTINTERFACES_TD
