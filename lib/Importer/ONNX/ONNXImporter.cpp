//===- ONNXImporter.cpp - ONNX models to the graph dialect -----*- C++ -*-===//
//
// Parses the model, creates `func.func @main` with the graph inputs as
// arguments, turns initializers into weights or constants, imports the nodes
// in order through the op rules (inlining model-local functions), folds ops
// on constants as it goes, and returns the graph outputs.
//
//===----------------------------------------------------------------------===//

#include "ImporterContext.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Encoding/KernelFolding.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <functional>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/unknown_field_set.h>

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;

void mlir::paracc::registerONNXImporterDialects(DialectRegistry &registry) {
  registry.insert<func::FuncDialect, graph::GraphDialect>();
}

namespace {

/// Collects protobuf text-format errors with their position.
class TextErrorCollector : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int line, int column, const std::string &message) override {
    if (first.empty())
      first = "line " + std::to_string(line + 1) + ", column " +
              std::to_string(column + 1) + ": " + message;
  }
  std::string first;
};

class GraphImporter {
public:
  GraphImporter(MLIRContext &context, const ONNXImportOptions &options,
                WeightStore &weights, std::string path,
                std::optional<StringRef> bytes = std::nullopt,
                std::optional<std::string> externalDataDir = std::nullopt)
      : context(context), options(options), weights(weights),
        path(std::move(path)), bytes(bytes), builder(&context) {
    // A model from bytes has the folder it is given ("": none).
    if (externalDataDir) {
      modelDir = *externalDataDir;
    } else {
      modelDir = llvm::sys::path::parent_path(this->path).str();
      if (modelDir.empty())
        modelDir = ".";
    }
  }

  ONNXImportResult run();

private:
  LogicalResult parseModel(onnx::ModelProto &model);
  LogicalResult importInputs(const onnx::GraphProto &graph,
                             SmallVectorImpl<Type> &argTypes,
                             SmallVectorImpl<std::string> &argNames);
  LogicalResult importInitializers(const onnx::GraphProto &graph);
  LogicalResult importNodes(const google::protobuf::RepeatedPtrField<
                                onnx::NodeProto> &nodes,
                            llvm::StringMap<OnnxValue> &scope, int depth);
  LogicalResult importNode(const onnx::NodeProto &node,
                           llvm::StringMap<OnnxValue> &scope, int depth);
  LogicalResult inlineFunction(const onnx::FunctionProto &function,
                               const onnx::NodeProto &call,
                               llvm::StringMap<OnnxValue> &scope, int depth);
  LogicalResult importIf(const onnx::NodeProto &node,
                         llvm::StringMap<OnnxValue> &scope, int depth);
  Location nodeLoc(const onnx::NodeProto &node);
  void eraseDeadOps(Block &block);

  MLIRContext &context;
  const ONNXImportOptions &options;
  WeightStore &weights;
  std::string path, modelDir;
  /// The model's bytes when it does not come from `path`.
  std::optional<StringRef> bytes;
  OpBuilder builder;
  ImportStatus status;
  int64_t opset = 0;
  std::map<std::pair<std::string, std::string>, const onnx::FunctionProto *>
      functions;
  llvm::StringMap<OnnxValue> values;
  int64_t nodeCounter = 0;
};

} // namespace

/// An ONNX shape as declared: "[2,seq,?]".
static std::string declaredShape(const onnx::TensorShapeProto &shape) {
  std::string text = "[";
  for (int i = 0; i < shape.dim_size(); ++i) {
    const auto &d = shape.dim(i);
    text += (i ? "," : "") + (d.has_dim_value() ? std::to_string(d.dim_value())
                              : d.dim_param().empty() ? std::string("?")
                                                      : d.dim_param());
  }
  return text + "]";
}

/// Checks what a graph output declares against what the graph computes:
/// the element type when one is given, the rank when a shape is given, and
/// every fixed dim (graph values always have static shapes). (onnxruntime
/// rejects such models too; running them would hand back something else than
/// the model promises.)
static LogicalResult checkDeclaredOutput(Location loc,
                                         const onnx::ValueInfoProto &output,
                                         Value computed) {
  if (!output.type().has_tensor_type())
    return success();
  const auto &declared = output.type().tensor_type();
  auto type = cast<RankedTensorType>(computed.getType());
  if (declared.elem_type() != onnx::TensorProto::UNDEFINED) {
    Type element = elementTypeFromOnnx(loc.getContext(), declared.elem_type());
    if (element != type.getElementType()) {
      InFlightDiagnostic diag = emitError(loc)
                                << "graph output '" << output.name()
                                << "' is declared as ";
      if (element)
        diag << element;
      else
        diag << "element type " << declared.elem_type();
      return diag << " but the graph computes " << type.getElementType();
    }
  }
  if (!declared.has_shape())
    return success();
  const auto &dims = declared.shape().dim();
  bool agrees = dims.size() == type.getRank();
  for (int i = 0; agrees && i < dims.size(); ++i)
    if (dims[i].has_dim_value() && dims[i].dim_value() != type.getDimSize(i))
      agrees = false;
  if (agrees)
    return success();
  return emitError(loc) << "graph output '" << output.name()
                        << "' is declared with shape "
                        << declaredShape(declared.shape())
                        << " but the graph computes "
                        << shapeStr(type.getShape());
}

LogicalResult GraphImporter::parseModel(onnx::ModelProto &model) {
  Location loc = FileLineColLoc::get(&context, path, 0, 0);
  std::unique_ptr<llvm::MemoryBuffer> file;
  StringRef data;
  if (bytes) {
    data = *bytes;
  } else {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      return emitError(loc) << "cannot read '" << path
                            << "': " << buffer.getError().message();
    file = std::move(*buffer);
    data = file->getBuffer();
  }
  if (data.empty())
    return emitError(loc) << "'" << path << "' is empty, not an ONNX model";
  if (options.textFormat) {
    google::protobuf::TextFormat::Parser parser;
    TextErrorCollector errors;
    parser.RecordErrorsTo(&errors);
    if (!parser.ParseFromString(data.str(), &model))
      return emitError(loc) << "'" << path
                            << "' is not a valid ONNX model in text format: "
                            << errors.first;
  } else {
    if (data.size() > static_cast<size_t>(INT_MAX))
      return emitError(loc) << "'" << path
                            << "' is larger than protobuf's 2 GiB limit; "
                               "store the weights as external data";
    google::protobuf::io::CodedInputStream stream(
        reinterpret_cast<const uint8_t *>(data.data()),
        static_cast<int>(data.size()));
    stream.SetRecursionLimit(64);
    if (!model.ParseFromCodedStream(&stream) ||
        !stream.ConsumedEntireMessage())
      return emitError(loc) << "'" << path
                            << "' is not a valid ONNX model (protobuf parse "
                               "failed: truncated or corrupt file)";
  }
  if (!model.has_graph() || model.graph().output_size() == 0)
    return emitError(loc) << "'" << path
                          << "' is not a valid ONNX model: it has no graph "
                             "outputs";
  if (model.ir_version() < 3) {
    status.unsupported = true;
    return emitError(loc) << "unsupported ONNX IR version "
                          << model.ir_version() << " in '" << path
                          << "' (paracc reads IR 3 and later)";
  }
  if (model.opset_import_size() == 0)
    return emitError(loc) << "'" << path
                          << "' is not a valid ONNX model: it imports no "
                             "opset";
  for (const auto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      opset = o.version();
  if (opset == 0) {
    status.unsupported = true;
    std::string domains;
    for (const auto &o : model.opset_import())
      domains += (domains.empty() ? "" : ", ") + o.domain();
    return emitError(loc) << "unsupported model: '" << path
                          << "' imports only the opsets of domains {"
                          << domains << "}, not the default ONNX opset";
  }
  for (const auto &f : model.functions())
    functions[{f.domain(), f.name()}] = &f;
  return success();
}

LogicalResult
GraphImporter::importInputs(const onnx::GraphProto &graph,
                            SmallVectorImpl<Type> &argTypes,
                            SmallVectorImpl<std::string> &argNames) {
  llvm::StringSet<> initializers;
  for (const auto &init : graph.initializer())
    initializers.insert(init.name());
  for (const auto &input : graph.input()) {
    // Before IR 4, initializers were listed as inputs too.
    if (initializers.contains(input.name()))
      continue;
    Location loc = NameLoc::get(StringAttr::get(&context, input.name()),
                                FileLineColLoc::get(&context, path, 0, 0));
    if (!input.type().has_tensor_type()) {
      status.unsupported = true;
      return emitError(loc) << "unsupported non-tensor graph input '"
                            << input.name() << "'";
    }
    const auto &tensorType = input.type().tensor_type();
    Type elementType = elementTypeFromOnnx(&context, tensorType.elem_type());
    if (!elementType) {
      status.unsupported = true;
      return emitError(loc) << "unsupported element type "
                            << tensorType.elem_type() << " of graph input '"
                            << input.name() << "'";
    }
    SmallVector<int64_t> shape;
    std::optional<SmallVector<int64_t>> given;
    if (auto it = options.inputShapes.find(input.name());
        it != options.inputShapes.end())
      given = it->second;
    else if (argTypes.size() < options.inputShapesByPosition.size())
      given = options.inputShapesByPosition[argTypes.size()];
    bool hasShape = tensorType.has_shape();
    if (given) {
      shape = *given;
      if (hasShape) {
        // The given shape must agree with the model's fixed dims.
        const auto &dims = tensorType.shape().dim();
        bool agrees = dims.size() == static_cast<int>(shape.size());
        for (int i = 0; agrees && i < dims.size(); ++i)
          if (dims[i].has_dim_value() && dims[i].dim_value() != shape[i])
            agrees = false;
        if (!agrees) {
          return emitError(loc)
                 << "input '" << input.name() << "' is declared as "
                 << declaredShape(tensorType.shape())
                 << " but was given a tensor of shape " << shapeStr(shape);
        }
      }
    } else if (!hasShape) {
      return emitError(loc) << "input '" << input.name()
                            << "' has no shape; give one (an input tensor or "
                               "--input-shape)";
    } else {
      for (const auto &dim : tensorType.shape().dim()) {
        if (!dim.has_dim_value() || dim.dim_value() < 0)
          return emitError(loc)
                 << "input '" << input.name() << "' has the symbolic dim '"
                 << (dim.dim_param().empty() ? "?" : dim.dim_param())
                 << "'; give a concrete shape (an input tensor or "
                    "--input-shape)";
        shape.push_back(dim.dim_value());
      }
    }
    for (int64_t d : shape)
      if (d < 0 || d > (int64_t(1) << 40))
        return emitError(loc) << "input '" << input.name()
                              << "' has an invalid dim " << d;
    argTypes.push_back(RankedTensorType::get(shape, elementType));
    argNames.push_back(input.name());
  }
  for (const auto &named : options.namedByUser) {
    if (llvm::is_contained(argNames, named.getKey().str()))
      continue;
    std::string inputs;
    for (const std::string &n : argNames)
      inputs += (inputs.empty() ? "'" : ", '") + n + "'";
    return emitError(FileLineColLoc::get(&context, path, 0, 0))
           << "--input-shape names '" << named.getKey()
           << "', which is not an input of the model (its inputs: "
           << (inputs.empty() ? std::string("none") : inputs) << ")";
  }
  return success();
}

LogicalResult GraphImporter::importInitializers(const onnx::GraphProto &graph) {
  // Parameters whatever their rank: a convolution's weights and bias, and
  // the tables a Gather or GatherND indexes (a mixture of experts' stacked
  // weights [experts, out, in], picked per token by expert index).
  llvm::StringSet<> higherRankParameters, neverParameters;
  // The nodes of the graph and of its subgraphs (If's branches).
  SmallVector<const onnx::NodeProto *> nodes;
  std::function<void(const onnx::GraphProto &)> collect =
      [&](const onnx::GraphProto &g) {
        for (const auto &node : g.node()) {
          nodes.push_back(&node);
          for (const auto &a : node.attribute())
            if (a.has_g())
              collect(a.g());
        }
      };
  collect(graph);
  for (const onnx::NodeProto *nodePtr : nodes) {
    const onnx::NodeProto &node = *nodePtr;
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      continue;
    if (node.op_type() == "Conv" || node.op_type() == "ConvTranspose")
      for (int i = 1; i < std::min(node.input_size(), 3); ++i)
        higherRankParameters.insert(node.input(i));
    if ((node.op_type() == "Gather" || node.op_type() == "GatherND") &&
        node.input_size() > 0)
      higherRankParameters.insert(node.input(0));
    // Inputs that are attributes in all but name: Resize's roi and scales.
    if (node.op_type() == "Resize")
      for (int i = 1; i < node.input_size(); ++i)
        neverParameters.insert(node.input(i));
  }
  for (const auto &init : graph.initializer()) {
    Location loc = NameLoc::get(StringAttr::get(&context, init.name()),
                                FileLineColLoc::get(&context, path, 0, 0));
    if (init.name().empty())
      return emitError(loc) << "initializer without a name";
    Type elementType = elementTypeFromOnnx(&context, init.data_type());
    // The element count, or -1 for a negative or huge shape (which
    // constantFromTensorProto reports).
    int64_t count = 1;
    for (int64_t d : init.dims()) {
      if (d < 0 || (d != 0 && count > (int64_t(1) << 50) / d)) {
        count = -1;
        break;
      }
      count *= d;
    }
    // Parameters are float tensors of rank <= 2 (matrices, vectors, tables),
    // large ones, convolutions' weights and gathered tables; other small
    // float tensors of higher rank are data an exporter folded (an attention
    // mask [B, 1, S, S], rotary tables) and stay constants that later passes
    // can read.
    bool isWeight = elementType && isa<FloatType>(elementType) &&
                    !neverParameters.contains(init.name()) &&
                    count >= options.minWeightElements &&
                    (init.dims_size() <= 2 || count > (int64_t(1) << 20) ||
                     higherRankParameters.contains(init.name()));
    if (isWeight) {
      FailureOr<WeightEntry> entry = weightFromTensorProto(
          init, modelDir, loc, status, options.allowMissingWeightData,
          options.shapesOnly);
      if (failed(entry))
        return failure();
      auto type = RankedTensorType::get(
          SmallVector<int64_t>(entry->shape.begin(), entry->shape.end()),
          elementType);
      weights.add(init.name(), std::move(*entry));
      OnnxValue v;
      v.tensor = graph::WeightOp::create(builder, loc, type, init.name());
      values[init.name()] = v;
      continue;
    }
    FailureOr<DenseElementsAttr> attr =
        constantFromTensorProto(init, modelDir, loc, status);
    if (failed(attr))
      return failure();
    OnnxValue v;
    v.tensor = graph::ConstantOp::create(builder, loc, *attr);
    values[init.name()] = v;
  }
  return success();
}

Location GraphImporter::nodeLoc(const onnx::NodeProto &node) {
  std::string name = node.name().empty()
                         ? node.op_type() + "_" + std::to_string(nodeCounter)
                         : node.name();
  return NameLoc::get(StringAttr::get(&context, name),
                      FileLineColLoc::get(&context, path, 0, 0));
}

LogicalResult GraphImporter::importNodes(
    const google::protobuf::RepeatedPtrField<onnx::NodeProto> &nodes,
    llvm::StringMap<OnnxValue> &scope, int depth) {
  for (const auto &node : nodes)
    if (failed(importNode(node, scope, depth)))
      return failure();
  return success();
}

/// Where diagnostics place a node: its name, or else its first output.
static std::string nodePlace(const onnx::NodeProto &node) {
  if (!node.name().empty())
    return " at node '" + node.name() + "'";
  for (const std::string &output : node.output())
    if (!output.empty())
      return " at the unnamed node with output '" + output + "'";
  return " at an unnamed node";
}

LogicalResult GraphImporter::importNode(const onnx::NodeProto &node,
                                        llvm::StringMap<OnnxValue> &scope,
                                        int depth) {
  ++nodeCounter;
  Location loc = nodeLoc(node);
  auto fn = functions.find({node.domain(), node.op_type()});
  if (fn != functions.end())
    return inlineFunction(*fn->second, node, scope, depth);
  if (node.op_type() == "If" &&
      (node.domain().empty() || node.domain() == "ai.onnx"))
    return importIf(node, scope, depth);
  if (!node.domain().empty() && node.domain() != "ai.onnx") {
    status.unsupported = true;
    return emitError(loc) << "unsupported op '" << node.domain()
                          << "::" << node.op_type() << "'" << nodePlace(node)
                          << " (paracc supports the default ONNX domain and "
                             "model-local functions)";
  }
  const RuleTable &table = getRuleTable();
  RuleFn rule = table.lookup(node.op_type(), opset);
  std::string description = "op '" + node.op_type() + "' (opset " +
                            std::to_string(opset) + ")" + nodePlace(node);
  if (!rule) {
    status.unsupported = true;
    InFlightDiagnostic diag = emitError(loc) << "unsupported " << description;
    // Name the first opset that has the op when the model's is too old.
    if (table.contains(node.op_type()))
      for (int64_t v = opset + 1; v <= 64; ++v)
        if (table.lookup(node.op_type(), v)) {
          diag << "; paracc supports it from opset " << v;
          break;
        }
    return diag;
  }

  // Type inference, verification and constant folding report errors without
  // naming the node: collect the diagnostics of this node and name it.
  SmallVector<Diagnostic> diagnostics;
  bool hadError = false;
  {
    ScopedDiagnosticHandler collect(&context, [&](Diagnostic &diag) {
      hadError |= diag.getSeverity() == DiagnosticSeverity::Error;
      diagnostics.push_back(std::move(diag));
      return success();
    });
    Block *block = builder.getInsertionBlock();
    Operation *last = block->empty() ? nullptr : &block->back();
    NodeContext ctx(builder, node, opset, loc, scope, status);
    if (succeeded(rule(ctx))) {
      // Fold what this node created when its operands are constants: shape
      // and mask subgraphs become constants, and later rules can read them.
      // The node's outputs are the only names that can refer to folded ops.
      llvm::DenseMap<Value, Value> replaced;
      foldConstantOps(last ? std::next(last->getIterator()) : block->begin(),
                      block->end(), /*maxResultElements=*/1 << 20,
                      [&](Value from, Value to) { replaced[from] = to; });
      auto remap = [&](Value &v) {
        for (auto it = replaced.find(v); it != replaced.end();
             it = replaced.find(v))
          v = it->second;
      };
      for (const std::string &name : node.output()) {
        auto it = scope.find(name);
        if (name.empty() || it == scope.end())
          continue;
        remap(it->second.tensor);
        for (Value &v : it->second.sequence)
          remap(v);
      }
    } else {
      hadError = true;
    }
  }
  for (Diagnostic &diag : diagnostics) {
    if (diag.getSeverity() != DiagnosticSeverity::Error ||
        StringRef(diag.str()).contains(description)) {
      context.getDiagEngine().emit(std::move(diag));
      continue;
    }
    InFlightDiagnostic named = emitError(diag.getLocation())
                               << description << ": " << diag.str();
    for (Diagnostic &note : diag.getNotes())
      named.attachNote(note.getLocation()) << note.str();
  }
  if (hadError)
    return failure();

  for (int i = 0; i < node.output_size(); ++i)
    if (!node.output(i).empty() && !scope.count(node.output(i))) {
      status.unsupported = true;
      return emitError(loc)
             << "unsupported output " << i << " of " << description;
    }
  return success();
}

LogicalResult GraphImporter::inlineFunction(const onnx::FunctionProto &function,
                                            const onnx::NodeProto &call,
                                            llvm::StringMap<OnnxValue> &scope,
                                            int depth) {
  Location loc = nodeLoc(call);
  if (depth > 16)
    return emitError(loc) << "model-local functions nest too deeply at '"
                          << call.op_type() << "'";
  llvm::StringMap<OnnxValue> inner;
  for (int i = 0; i < function.input_size(); ++i) {
    if (i >= call.input_size() || call.input(i).empty())
      continue;
    auto it = scope.find(call.input(i));
    if (it == scope.end())
      return emitError(loc) << "input '" << call.input(i) << "' of function '"
                            << function.name() << "'" << nodePlace(call)
                            << " is not defined before use";
    inner[function.input(i)] = it->second;
  }
  // The defaults of the function's attributes: FunctionProto.attribute_proto
  // (field 11, IR 9) is newer than the onnx.proto paracc is built with, so
  // it arrives as an unknown field.
  SmallVector<onnx::AttributeProto> defaults;
  const google::protobuf::UnknownFieldSet &unknown =
      function.GetReflection()->GetUnknownFields(function);
  for (int i = 0; i < unknown.field_count(); ++i) {
    const google::protobuf::UnknownField &field = unknown.field(i);
    if (field.number() != 11 ||
        field.type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
      continue;
    if (!defaults.emplace_back().ParseFromString(field.length_delimited()))
      return emitError(loc) << "function '" << function.name()
                            << "' has a malformed attribute default";
  }
  // Substitute attribute references with the caller's attributes, or else
  // the function's defaults.
  google::protobuf::RepeatedPtrField<onnx::NodeProto> body = function.node();
  for (auto &node : body) {
    google::protobuf::RepeatedPtrField<onnx::AttributeProto> attrs;
    for (const auto &a : node.attribute()) {
      if (a.ref_attr_name().empty()) {
        *attrs.Add() = a;
        continue;
      }
      const onnx::AttributeProto *found = nullptr;
      for (const auto &c : call.attribute())
        if (c.name() == a.ref_attr_name())
          found = &c;
      if (!found)
        for (const auto &d : defaults)
          if (d.name() == a.ref_attr_name())
            found = &d;
      if (found) {
        onnx::AttributeProto *copy = attrs.Add();
        *copy = *found;
        copy->set_name(a.name());
      }
    }
    node.mutable_attribute()->Swap(&attrs);
  }
  if (failed(importNodes(body, inner, depth + 1)))
    return failure();
  for (int i = 0; i < function.output_size() && i < call.output_size(); ++i) {
    if (call.output(i).empty())
      continue;
    auto it = inner.find(function.output(i));
    if (it == inner.end())
      return emitError(loc) << "function '" << function.name()
                            << "' does not produce output '"
                            << function.output(i) << "'";
    scope[call.output(i)] = it->second;
  }
  return success();
}

/// If with a condition known when the model is imported (exporters test
/// shapes this way: the legacy exporter's Squeeze of a dynamic dim, which
/// --input-shape makes static): the branch it takes is imported in place,
/// reading the enclosing scope's values, and its outputs become the If's.
LogicalResult GraphImporter::importIf(const onnx::NodeProto &node,
                                      llvm::StringMap<OnnxValue> &scope,
                                      int depth) {
  Location loc = nodeLoc(node);
  const std::string place =
      "op 'If' (opset " + std::to_string(opset) + ")" + nodePlace(node);
  if (depth > 16)
    return emitError(loc) << place << ": subgraphs nest too deeply";
  if (node.input_size() != 1 || node.input(0).empty())
    return emitError(loc) << place << ": takes one input, the condition";
  auto it = scope.find(node.input(0));
  if (it == scope.end() || it->second.isSequence)
    return emitError(loc) << place << ": the condition '" << node.input(0)
                          << "' is not defined before use";
  auto constant = it->second.tensor.getDefiningOp<graph::ConstantOp>();
  auto value =
      constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
  if (!value) {
    status.unsupported = true;
    return emitError(loc) << "unsupported " << place
                          << " whose condition is not known when the model "
                             "is imported (paracc compiles static graphs; "
                             "give the inputs' shapes with --input-shape if "
                             "the condition tests one)";
  }
  if (value.getNumElements() != 1)
    return emitError(loc) << place << ": the condition has "
                          << value.getNumElements() << " elements, not one";
  bool taken;
  if (isa<FloatType>(value.getElementType()))
    taken = !(*value.getValues<APFloat>().begin()).isZero();
  else
    taken = !(*value.getValues<APInt>().begin()).isZero();
  const char *branchName = taken ? "then_branch" : "else_branch";
  const onnx::GraphProto *branch = nullptr;
  for (const auto &a : node.attribute())
    if (a.name() == branchName && a.has_g())
      branch = &a.g();
  if (!branch)
    return emitError(loc) << place << ": no " << branchName;
  if (branch->output_size() != node.output_size())
    return emitError(loc) << place << ": the " << branchName << " has "
                          << branch->output_size() << " outputs, the node "
                          << node.output_size();
  // The branch sees the enclosing scope and its own names.
  llvm::StringMap<OnnxValue> inner = scope;
  for (const auto &init : branch->initializer()) {
    Location initLoc =
        NameLoc::get(StringAttr::get(&context, init.name()), loc);
    FailureOr<DenseElementsAttr> attr =
        constantFromTensorProto(init, modelDir, initLoc, status);
    if (failed(attr))
      return failure();
    OnnxValue v;
    v.tensor = graph::ConstantOp::create(builder, initLoc, *attr);
    inner[init.name()] = v;
  }
  if (failed(importNodes(branch->node(), inner, depth + 1)))
    return failure();
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty())
      continue;
    auto out = inner.find(branch->output(i).name());
    if (out == inner.end())
      return emitError(loc) << place << ": the " << branchName
                            << " does not produce its output '"
                            << branch->output(i).name() << "'";
    scope[node.output(i)] = out->second;
  }
  return success();
}

void GraphImporter::eraseDeadOps(Block &block) {
  // Ops with effects stay: graph.assign, the update of a model buffer,
  // has no uses.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (isOpTriviallyDead(&op))
      op.erase();
}

ONNXImportResult GraphImporter::run() {
  ONNXImportResult result;
  auto fail = [&] {
    result.module = nullptr;
    result.failure =
        status.unsupported ? ImportFailure::Unsupported : ImportFailure::Invalid;
    return std::move(result);
  };
  onnx::ModelProto model;
  if (failed(parseModel(model)))
    return fail();
  const onnx::GraphProto &graph = model.graph();

  Location fileLoc = FileLineColLoc::get(&context, path, 0, 0);
  result.module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(result.module->getBody());
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  if (failed(importInputs(graph, argTypes, argNames)))
    return fail();
  auto func = func::FuncOp::create(builder, fileLoc, options.functionName,
                                   builder.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  for (auto [i, name] : llvm::enumerate(argNames)) {
    OnnxValue v;
    v.tensor = entry->getArgument(i);
    values[name] = v;
    func.setArgAttr(i, graph::kNameAttrName, builder.getStringAttr(name));
  }
  builder.setInsertionPointToEnd(entry);
  if (failed(importInitializers(graph)))
    return fail();
  if (failed(importNodes(graph.node(), values, 0)))
    return fail();

  SmallVector<Value> outputs;
  for (const auto &output : graph.output()) {
    auto it = values.find(output.name());
    if (it == values.end() || it->second.isSequence) {
      emitError(fileLoc) << "graph output '" << output.name()
                         << "' is not produced by any node";
      return fail();
    }
    if (failed(checkDeclaredOutput(fileLoc, output, it->second.tensor)))
      return fail();
    outputs.push_back(it->second.tensor);
  }
  func::ReturnOp::create(builder, fileLoc, outputs);
  func.setType(builder.getFunctionType(argTypes, ValueRange(outputs).getTypes()));
  for (auto [i, output] : llvm::enumerate(graph.output()))
    func.setResultAttr(i, graph::kNameAttrName, builder.getStringAttr(output.name()));
  eraseDeadOps(*entry);
  if (failed(mlir::verify(*result.module)))
    return fail();
  return result;
}

ONNXImportResult mlir::paracc::importONNXFile(MLIRContext &context,
                                              const std::string &path,
                                              const ONNXImportOptions &options,
                                              WeightStore &weights) {
  context.loadDialect<func::FuncDialect, graph::GraphDialect>();
  GraphImporter importer(context, options, weights, path);
  return importer.run();
}

ONNXImportResult mlir::paracc::importONNXBuffer(
    MLIRContext &context, StringRef bytes, const std::string &name,
    const std::string &externalDataDir, const ONNXImportOptions &options,
    WeightStore &weights) {
  context.loadDialect<func::FuncDialect, graph::GraphDialect>();
  GraphImporter importer(context, options, weights, name, bytes,
                         externalDataDir);
  return importer.run();
}
