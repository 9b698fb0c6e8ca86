//===- GraphDialect.td - Graph dialect definition ----------*- tablegen -*-===//
//
// The graph dialect: value-semantics tensor operations for what
// deep-learning models use, on statically shaped tensors.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_GRAPH_IR_GRAPHDIALECT_TD
#define PARACC_DIALECT_GRAPH_IR_GRAPHDIALECT_TD

include "mlir/IR/OpBase.td"

def Graph_Dialect : Dialect {
  let name = "graph";
  let cppNamespace = "::mlir::paracc::graph";
  let summary = "Value-semantics tensor operations of deep-learning graphs";
  let description = [{
    The graph dialect holds a model after import: every value is a statically
    shaped tensor (`tensor<2x64x256xf32>`), every op is free of side effects.
    Op semantics follow ONNX (opset 13 and later) where ONNX has the op:
    binary ops broadcast like numpy, `graph.matmul` is ONNX MatMul, and so on.
    Parameters are `graph.weight` ops that name their tensor; their data lives
    outside the IR (in the model's initializers) so that large models stay
    small in memory and on the page.

    Element types: `f16`, `bf16`, `f32`, `f64`; signless `i8`...`i64` are
    signed integers; `ui8`...`ui64` unsigned; `i1` is bool.
  }];
  let hasConstantMaterializer = 1;
  // Function result attributes that passes read: `--paracc-autodiff` marks
  // each gradient result with the parameter (graph.weight name) it belongs
  // to, and `--paracc-optimizer` consumes those results. The optimizer marks
  // its per-parameter sums of squares (a vector result) with the parameter
  // each element belongs to (`gradient_norm_parts`), which the executable
  // records so that a training run can name a non-finite gradient.
  // Importers name function arguments and results (and the optimizer its
  // extra ones) with `name`: the model's input and output names, which the
  // executable's ports keep. An importer marks a `graph.weight` that the
  // model only reads as data with `buffer` (what it is: BatchNorm's running
  // statistics), and `--paracc-autodiff` records on the function the
  // parameters it did not differentiate, with why (`frozen_parameters`:
  // name -> reason), for explain and the training driver.
  let discardableAttrs = (ins "::mlir::StringAttr":$name,
                               "::mlir::StringAttr":$gradient_of,
                               "::mlir::DenseI64ArrayAttr":$gradient_offsets,
                               "::mlir::ArrayAttr":$gradient_norm_parts,
                               "::mlir::StringAttr":$buffer,
                               "::mlir::DictionaryAttr":$frozen_parameters);
}

class Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

defvar Graph_FloatTypes = [F16, BF16, F32, F64];
defvar Graph_SignedTypes = [I8, I16, I32, I64];
defvar Graph_UnsignedTypes = [UI8, UI16, UI32, UI64];

def Graph_Tensor : StaticShapeTensorOf<
    !listconcat(Graph_FloatTypes, Graph_SignedTypes, Graph_UnsignedTypes,
                [I1])>;
def Graph_NumericTensor : StaticShapeTensorOf<
    !listconcat(Graph_FloatTypes, Graph_SignedTypes, Graph_UnsignedTypes)>;
def Graph_SignedTensor : StaticShapeTensorOf<
    !listconcat(Graph_FloatTypes, Graph_SignedTypes)>;
def Graph_FloatTensor : StaticShapeTensorOf<Graph_FloatTypes>;
def Graph_BoolTensor : StaticShapeTensorOf<[I1]>;
def Graph_IndexTensor : StaticShapeTensorOf<[I32, I64]>;
def Graph_I64Tensor : StaticShapeTensorOf<[I64]>;

#endif // PARACC_DIALECT_GRAPH_IR_GRAPHDIALECT_TD
