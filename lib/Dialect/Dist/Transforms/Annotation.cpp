//===- Annotation.cpp - Writing sharding annotations -----------*- C++ -*-===//

#include "paracc/Dialect/Dist/Transforms/Annotation.h"

using namespace mlir;
using namespace mlir::paracc::dist;

void mlir::paracc::dist::annotateDim(Value value, int64_t dim,
                                     ArrayRef<StringAttr> axes) {
  MLIRContext *ctx = value.getContext();
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  StringAttr open = StringAttr::get(ctx, "?");
  SmallVector<SmallVector<StringAttr>> dims(rank, {open});
  if (ShardingAttr existing = getSharding(value))
    for (int64_t d = 0; d < rank && d < existing.getRank(); ++d)
      if (!existing.isDimOpen(d))
        dims[d] = existing.getDimAxes(d);
  dims[dim].assign(axes.begin(), axes.end());
  setSharding(value, ShardingAttr::get(ctx, dims));
}

void mlir::paracc::dist::annotate(Value value,
                                  ArrayRef<SmallVector<StringAttr>> dims) {
  setSharding(value, ShardingAttr::get(value.getContext(), dims));
}
