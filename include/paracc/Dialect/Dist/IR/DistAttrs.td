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

#endif // PARACC_DIALECT_DIST_IR_DISTATTRS_TD
