//===- Executable.cpp - Loading and validating .pcx files ------*- C++ -*-===//

#include "paracc/runtime/Executable.h"
#include "paracc/runtime/CommunicationInstr.h"

#include "paracc/runtime/executable_generated.h"

#include <cstring>
#include <functional>
#include <set>

using namespace paracc::rt;
namespace fb = ::paracc::fb;

namespace {
constexpr size_t kHeaderSize = 16;
constexpr size_t kDataAlignment = 64;
/// Sanity bounds that keep a hostile file from exhausting memory.
constexpr int64_t kMaxRanks = 1 << 16;
constexpr int64_t kMaxTensorBytes = int64_t(1) << 42;
} // namespace

uint64_t paracc::rt::executableDataOffset(size_t fbSize) {
  uint64_t end = kHeaderSize + fbSize;
  return (end + kDataAlignment - 1) / kDataAlignment * kDataAlignment;
}

std::vector<uint8_t> paracc::rt::packExecutable(const uint8_t *flatbuffer,
                                                size_t fbSize,
                                                const std::vector<uint8_t> &data) {
  uint64_t dataOffset = executableDataOffset(fbSize);
  std::vector<uint8_t> out(dataOffset + data.size(), 0);
  std::memcpy(out.data(), kExecutableMagic, 8);
  uint64_t size = fbSize;
  for (int i = 0; i < 8; ++i)
    out[8 + i] = static_cast<uint8_t>(size >> (8 * i));
  std::memcpy(out.data() + kHeaderSize, flatbuffer, fbSize);
  if (!data.empty())
    std::memcpy(out.data() + dataOffset, data.data(), data.size());
  return out;
}

Executable::~Executable() = default;

StatusOr<std::shared_ptr<Executable>>
Executable::loadFile(const std::string &path) {
  auto file = MappedFile::open(path);
  if (!file)
    return file.status();
  std::shared_ptr<Executable> exe(new Executable());
  exe->file_ = std::move(*file);
  exe->base_ = exe->file_->data();
  exe->size_ = exe->file_->size();
  std::string::size_type slash = path.rfind('/');
  exe->directory_ = slash == std::string::npos ? "." : path.substr(0, slash);
  PARACC_RETURN_IF_ERROR(exe->decode(path));
  return exe;
}

StatusOr<std::shared_ptr<Executable>>
Executable::loadBuffer(std::vector<uint8_t> bytes) {
  std::shared_ptr<Executable> exe(new Executable());
  exe->owned_ = std::move(bytes);
  exe->base_ = exe->owned_.data();
  exe->size_ = exe->owned_.size();
  PARACC_RETURN_IF_ERROR(exe->decode("<memory>"));
  return exe;
}

namespace {
/// Decodes and checks the program tables.
class Decoder {
public:
  /// Resolves an External state buffer's bytes (Executable::mapExternal).
  using ExternalMapper = std::function<Status(
      const fb::ExternalData *, uint64_t, const uint8_t *&, std::string &,
      const std::string &)>;

  Decoder(const fb::Program &program, const uint8_t *data, size_t dataSize,
          const std::string &what, ExternalMapper mapExternal)
      : program(program), data(data), dataSize(dataSize), what(what),
        mapExternal(std::move(mapExternal)) {}

  Status decodeMesh(Mesh &mesh);
  Status decodeValues(const fb::Function &f, std::vector<ValueType> &values);
  Status decodeState(std::vector<StateInfo> &state);
  Status decodeFunction(const fb::Function *f, size_t index,
                        const std::vector<StateInfo> &state, FunctionInfo &out);
  Status decodeType(const fb::TensorType *t, ValueType &out,
                    const std::string &context);
  Status decodeSharding(const fb::Sharding *s, size_t rank,
                        TensorSharding &out, const std::string &context);
  Status decodePort(const fb::Port *p, PortInfo &out, const std::string &kind);
  Status dataRange(const fb::DataRef *ref, uint64_t expectedSize,
                   const uint8_t *&out, const std::string &context);
  Status define(int32_t value, const std::string &context);
  Status use(int32_t value, const std::string &context);

  const fb::Program &program;
  const uint8_t *data;
  size_t dataSize;
  const std::string &what;
  ExternalMapper mapExternal;
  const Mesh *mesh = nullptr;
  const std::vector<ValueType> *values = nullptr;
  std::vector<bool> defined;
};
} // namespace

Status Decoder::decodeType(const fb::TensorType *t, ValueType &out,
                           const std::string &context) {
  if (!t)
    return errorf(context, ": missing type");
  if (!isSupportedDType(t->dtype()))
    return errorf(context, ": unsupported element type ", int(t->dtype()));
  out.dtype = static_cast<DType>(t->dtype());
  out.shape.clear();
  if (t->shape())
    out.shape.assign(t->shape()->begin(), t->shape()->end());
  int64_t n = shapeNumElements(out.shape);
  if (n < 0 || n > kMaxTensorBytes / int64_t(dtypeSize(out.dtype)))
    return errorf(context, ": invalid or too large shape ",
                  shapeToString(out.shape));
  return Status::ok();
}

Status Decoder::decodeMesh(Mesh &out) {
  const fb::Mesh *m = program.mesh();
  if (!m || !m->axis_sizes() || !m->axis_names() ||
      m->axis_sizes()->size() != m->axis_names()->size())
    return errorf(what, ": the mesh is missing or inconsistent");
  int64_t ranks = 1;
  std::set<std::string> names;
  for (size_t i = 0; i < m->axis_sizes()->size(); ++i) {
    int64_t size = m->axis_sizes()->Get(i);
    const auto *name = m->axis_names()->Get(i);
    if (size < 1 || !name || name->size() == 0 ||
        !names.insert(name->str()).second)
      return errorf(what, ": mesh axis ", i, " is invalid");
    ranks *= size;
    if (ranks > kMaxRanks)
      return errorf(what, ": the mesh has too many ranks");
    out.axisNames.push_back(name->str());
    out.axisSizes.push_back(size);
  }
  return Status::ok();
}

Status Decoder::decodeValues(const fb::Function &f,
                             std::vector<ValueType> &out) {
  if (!f.values())
    return errorf(what, ": missing value table");
  out.resize(f.values()->size());
  for (size_t i = 0; i < out.size(); ++i)
    PARACC_RETURN_IF_ERROR(decodeType(f.values()->Get(i), out[i],
                                      what + ": value %" + std::to_string(i)));
  defined.assign(out.size(), false);
  return Status::ok();
}

Status Decoder::decodeSharding(const fb::Sharding *s, size_t rank,
                               TensorSharding &out,
                               const std::string &context) {
  out.dimAxes.clear();
  if (!s || !s->dims() || s->dims()->size() == 0)
    return Status::ok();
  if (s->dims()->size() != rank)
    return errorf(context, ": sharding has ", s->dims()->size(),
                  " dims for a tensor of rank ", rank);
  std::set<int> used;
  for (const auto *dim : *s->dims()) {
    std::vector<int> axes;
    if (dim && dim->axes())
      for (int a : *dim->axes()) {
        if (a < 0 || a >= int(mesh->axisSizes.size()) ||
            !used.insert(a).second)
          return errorf(context, ": sharding uses mesh axis ", a,
                        " out of range or twice");
        axes.push_back(a);
      }
    out.dimAxes.push_back(std::move(axes));
  }
  return Status::ok();
}

Status Decoder::dataRange(const fb::DataRef *ref, uint64_t expectedSize,
                          const uint8_t *&out, const std::string &context) {
  if (!ref)
    return errorf(context, ": missing data");
  if (ref->size() != expectedSize)
    return errorf(context, ": data has ", ref->size(), " bytes, expected ",
                  expectedSize);
  if (ref->offset() > dataSize || ref->size() > dataSize - ref->offset())
    return errorf(context, ": data range lies outside the file");
  out = data + ref->offset();
  return Status::ok();
}

Status Decoder::define(int32_t value, const std::string &context) {
  if (value < 0 || size_t(value) >= defined.size())
    return errorf(context, ": value %", value, " out of range");
  if (defined[value])
    return errorf(context, ": value %", value, " is defined twice");
  defined[value] = true;
  return Status::ok();
}

Status Decoder::use(int32_t value, const std::string &context) {
  if (value < 0 || size_t(value) >= defined.size())
    return errorf(context, ": value %", value, " out of range");
  if (!defined[value])
    return errorf(context, ": value %", value, " is used before definition");
  return Status::ok();
}

Status Decoder::decodePort(const fb::Port *p, PortInfo &out,
                           const std::string &kind) {
  if (!p)
    return errorf(what, ": missing ", kind);
  out.value = p->value();
  out.name = p->name() ? p->name()->str() : "";
  std::string context = what + ": " + kind + " '" + out.name + "'";
  PARACC_RETURN_IF_ERROR(decodeType(p->global_type(), out.globalType, context));
  PARACC_RETURN_IF_ERROR(decodeSharding(p->sharding(),
                                        out.globalType.shape.size(),
                                        out.sharding, context));
  if (out.value < 0 || size_t(out.value) >= values->size())
    return errorf(context, ": value %", out.value, " out of range");
  auto local = localShape(out.globalType.shape, out.sharding, *mesh);
  if (!local)
    return errorf(context, ": ", local.status().message());
  const ValueType &v = (*values)[out.value];
  if (*local != v.shape || v.dtype != out.globalType.dtype)
    return errorf(context, ": local type ", shapeToString(v.shape),
                  " does not match the sharded global type ",
                  shapeToString(out.globalType.shape));
  return Status::ok();
}

namespace {
/// The root table with only its first field, the format version, checked:
/// read before the full verification, so that a file of another version is
/// named as such instead of failing the verification of this one.
struct VersionOnly : private flatbuffers::Table {
  enum : flatbuffers::voffset_t { kFormatVersion = 4 };
  bool Verify(flatbuffers::Verifier &verifier) const {
    return VerifyTableStart(verifier) &&
           VerifyField<uint32_t>(verifier, kFormatVersion, 4) &&
           verifier.EndTable();
  }
  uint32_t version() const { return GetField<uint32_t>(kFormatVersion, 0); }
};
} // namespace

Status Decoder::decodeState(std::vector<StateInfo> &out) {
  if (!program.state())
    return Status::ok();
  for (const auto *b : *program.state()) {
    if (!b)
      return errorf(what, ": missing state buffer");
    StateInfo info;
    info.name = b->name() ? b->name()->str() : "";
    std::string context = what + ": state '" + info.name + "'";
    PARACC_RETURN_IF_ERROR(
        decodeType(b->global_type(), info.globalType, context));
    PARACC_RETURN_IF_ERROR(decodeSharding(
        b->sharding(), info.globalType.shape.size(), info.sharding, context));
    auto local = localShape(info.globalType.shape, info.sharding, *mesh);
    if (!local)
      return errorf(context, ": ", local.status().message());
    switch (b->init()) {
    case fb::StateInit::Data:
      info.init = StateInit::Data;
      break;
    case fb::StateInit::Random:
      info.init = StateInit::Random;
      break;
    case fb::StateInit::Zeros:
      info.init = StateInit::Zeros;
      break;
    case fb::StateInit::External:
      // Read like the data segment's bytes, from the mapped file.
      info.init = StateInit::Data;
      break;
    case fb::StateInit::CastOf:
      info.init = StateInit::CastOf;
      info.source = b->source_state();
      break;
    default:
      return errorf(context, ": unknown initializer ", int(b->init()),
                    " (an executable of a newer paracc?)");
    }
    switch (b->kind()) {
    case fb::StateKind::Parameter:
      info.kind = StateKind::Parameter;
      break;
    case fb::StateKind::OptimizerState:
      info.kind = StateKind::OptimizerState;
      break;
    case fb::StateKind::WeightCopy:
      info.kind = StateKind::WeightCopy;
      break;
    default:
      return errorf(context, ": unknown kind ", int(b->kind()));
    }
    if ((info.kind == StateKind::WeightCopy) !=
        (info.init == StateInit::CastOf))
      return errorf(context, ": a weight copy must be initialized as a cast "
                             "of its parameter and only a copy can be");
    info.seed = b->seed();
    info.scale = b->scale();
    if (b->source_shape() && b->source_offsets()) {
      info.sourceShape.assign(b->source_shape()->begin(),
                              b->source_shape()->end());
      info.sourceOffsets.assign(b->source_offsets()->begin(),
                                b->source_offsets()->end());
      const Shape &g = info.globalType.shape;
      bool ok = info.sourceShape.size() == g.size() &&
                info.sourceOffsets.size() == g.size() &&
                shapeNumElements(info.sourceShape) >= 0;
      for (size_t d = 0; ok && d < g.size(); ++d)
        ok = info.sourceOffsets[d] >= 0 &&
             info.sourceOffsets[d] + g[d] <= info.sourceShape[d];
      if (!ok)
        return errorf(context, ": block lies outside its source parameter");
    }
    uint64_t bytes = shapeNumElements(info.globalType.shape) *
                     dtypeSize(info.globalType.dtype);
    if (b->init() == fb::StateInit::External)
      PARACC_RETURN_IF_ERROR(mapExternal(b->external(), bytes, info.data,
                                         info.externalPath, context));
    else if (info.init == StateInit::Data)
      PARACC_RETURN_IF_ERROR(dataRange(b->data(), bytes, info.data, context));
    if (info.init == StateInit::CastOf) {
      // The parameter precedes its copy in the table (decoded above).
      if (info.source < 0 || size_t(info.source) >= out.size())
        return errorf(context, ": copies state ", info.source,
                      ", which is not an earlier buffer");
      const StateInfo &source = out[size_t(info.source)];
      const char *differs =
          source.kind != StateKind::Parameter ? "not a parameter"
          : !isFloatDType(source.globalType.dtype) ||
                  !isFloatDType(info.globalType.dtype)
              ? "not floating"
          : source.globalType.shape != info.globalType.shape ? "another shape"
          : source.sharding.dimAxes != info.sharding.dimAxes
              ? "another sharding"
          : source.sourceOffsets != info.sourceOffsets ||
                  source.sourceShape != info.sourceShape
              ? "another block"
              : nullptr;
      if (differs)
        return errorf(context, ": copies '", source.name, "', which is ",
                      differs);
    }
    out.push_back(std::move(info));
  }
  return Status::ok();
}

Status Decoder::decodeFunction(const fb::Function *f, size_t index,
                               const std::vector<StateInfo> &state,
                               FunctionInfo &out) {
  if (!f)
    return errorf(what, ": missing function ", index);
  out.name = f->name() ? f->name()->str() : "";
  out.stage = f->stage();
  std::string fn = what + ": function '" + out.name + "'" +
                   (out.stage >= 0 ? " stage " + std::to_string(out.stage)
                                   : "");
  PARACC_RETURN_IF_ERROR(decodeValues(*f, out.values));
  values = &out.values;
  defined.assign(out.values.size(), false);
  // The state value types must be its shards; a buffer binds at most one
  // value per direction.
  auto binding = [&](const fb::StateBinding *b, const std::string &kind,
                     StateBinding &result) -> Status {
    if (!b)
      return errorf(fn, ": missing state ", kind);
    result.state = b->state();
    result.value = b->value();
    if (result.state < 0 || size_t(result.state) >= state.size())
      return errorf(fn, ": state ", kind, " of buffer ", result.state,
                    " out of range");
    if (result.value < 0 || size_t(result.value) >= out.values.size())
      return errorf(fn, ": state ", kind, " of '", state[result.state].name,
                    "' into value %", result.value, " out of range");
    const StateInfo &s = state[result.state];
    auto local = localShape(s.globalType.shape, s.sharding, *mesh);
    const ValueType &v = out.values[result.value];
    if (!local || *local != v.shape || v.dtype != s.globalType.dtype)
      return errorf(fn, ": state ", kind, " of '", s.name,
                    "': the value's type does not match the buffer's shard");
    return Status::ok();
  };

  if (f->inputs())
    for (const auto *p : *f->inputs()) {
      PortInfo info;
      PARACC_RETURN_IF_ERROR(decodePort(p, info, "input"));
      PARACC_RETURN_IF_ERROR(define(info.value, fn + ": input"));
      out.inputs.push_back(std::move(info));
    }
  if (f->constants())
    for (const auto *c : *f->constants()) {
      ConstantInfo info;
      info.value = c ? c->value() : -1;
      std::string context = fn + ": constant %" + std::to_string(info.value);
      PARACC_RETURN_IF_ERROR(define(info.value, context));
      const ValueType &v = out.values[info.value];
      PARACC_RETURN_IF_ERROR(
          dataRange(c->data(), shapeNumElements(v.shape) * dtypeSize(v.dtype),
                    info.data, context));
      out.constants.push_back(info);
    }
  std::vector<bool> written(state.size(), false);
  if (f->reads())
    for (const auto *r : *f->reads()) {
      StateBinding b;
      PARACC_RETURN_IF_ERROR(binding(r, "read", b));
      const StateInfo &s = state[b.state];
      PARACC_RETURN_IF_ERROR(define(b.value, fn + ": state '" + s.name + "'"));
      WeightInfo w;
      static_cast<StateInfo &>(w) = s;
      w.value = b.value;
      w.state = b.state;
      out.weights.push_back(std::move(w));
    }
  if (f->actions())
    for (const auto *a : *f->actions()) {
      if (!a || a->microbatch() < 0 || a->phase() > fb::ActionPhase::Weight)
        return errorf(fn, ": malformed pipeline action");
      out.actions.push_back(
          {a->microbatch(), static_cast<ActionPhase>(a->phase()), 0});
    }
  if (const auto *chunks = f->action_chunks()) {
    out.interleaved = true;
    if (chunks->size() != out.actions.size())
      return errorf(fn, ": ", chunks->size(), " action chunks for ",
                    out.actions.size(), " pipeline actions");
    for (size_t i = 0; i < chunks->size(); ++i) {
      if (chunks->Get(i) < 0)
        return errorf(fn, ": malformed pipeline action chunk");
      out.actions[i].chunk = chunks->Get(i);
    }
  }
  if (f->instrs())
    for (const auto *in : *f->instrs()) {
      if (!in)
        return errorf(fn, ": missing instruction");
      InstrInfo info;
      std::string context =
          fn + ": instruction " + std::to_string(out.instrs.size());
      if (in->opcode() >= uint16_t(OpCode::NumOpCodes))
        return errorf(context, ": unknown opcode ", in->opcode());
      info.opcode = static_cast<OpCode>(in->opcode());
      info.name = in->name() ? in->name()->str() : "";
      info.action = in->action();
      info.flops = in->flops();
      info.bytes = in->bytes();
      info.predictedSeconds = in->predicted_seconds();
      if (info.flops < 0 || info.bytes < 0 || !(info.predictedSeconds >= 0) ||
          info.predictedSeconds > 1e9)
        return errorf(context, ": malformed cost");
      if (info.action < -1 || info.action >= int32_t(out.actions.size()))
        return errorf(context, ": action ", info.action, " out of range");
      if (in->inputs())
        for (int32_t v : *in->inputs()) {
          PARACC_RETURN_IF_ERROR(use(v, context));
          info.inputs.push_back(v);
        }
      if (in->outputs())
        for (int32_t v : *in->outputs()) {
          PARACC_RETURN_IF_ERROR(define(v, context));
          info.outputs.push_back(v);
        }
      if (in->ints())
        info.attrs.ints.assign(in->ints()->begin(), in->ints()->end());
      if (in->floats())
        info.attrs.floats.assign(in->floats()->begin(), in->floats()->end());
      if (isCollective(info.opcode))
        PARACC_RETURN_IF_ERROR(
            checkCommunicationInstr(info, *mesh, out.values)
                .withContext(context + " (" + opCodeMnemonic(info.opcode) +
                             (info.name.empty() ? "" : " '" + info.name + "'") +
                             ")"));
      out.instrs.push_back(std::move(info));
    }
  if (const fb::MemoryPlan *plan = f->memory_plan()) {
    if (!plan->offsets() || plan->offsets()->size() != out.values.size() ||
        plan->arena_bytes() > (uint64_t(1) << 46))
      return errorf(fn, ": the memory plan does not fit the function");
    out.arenaBytes = plan->arena_bytes();
    for (size_t v = 0; v < out.values.size(); ++v) {
      uint64_t off = plan->offsets()->Get(v);
      uint64_t bytes = uint64_t(shapeNumElements(out.values[v].shape)) *
                       dtypeSize(out.values[v].dtype);
      if (off != ~uint64_t(0) &&
          (off > out.arenaBytes || bytes > out.arenaBytes - off))
        return errorf(fn, ": value %", v, " lies outside the memory plan");
      out.arenaOffsets.push_back(off);
    }
  }
  if (f->outputs())
    for (const auto *p : *f->outputs()) {
      PortInfo info;
      PARACC_RETURN_IF_ERROR(decodePort(p, info, "output"));
      PARACC_RETURN_IF_ERROR(use(info.value, fn + ": output"));
      out.outputs.push_back(std::move(info));
    }
  if (f->writes())
    for (const auto *w : *f->writes()) {
      StateBinding b;
      PARACC_RETURN_IF_ERROR(binding(w, "write", b));
      const StateInfo &s = state[b.state];
      PARACC_RETURN_IF_ERROR(use(b.value, fn + ": state '" + s.name + "'"));
      if (written[b.state])
        return errorf(fn, ": state '", s.name, "' is written twice");
      written[b.state] = true;
      out.writes.push_back(b);
    }
  return Status::ok();
}

int Executable::findFunction(const std::string &name) const {
  for (size_t i = 0; i < functions_.size(); ++i)
    if (functions_[i].name == name)
      return int(i);
  return -1;
}

Status Executable::decode(const std::string &what) {
  if (size_ < kHeaderSize || std::memcmp(base_, kExecutableMagic, 8) != 0)
    return errorf("'", what, "' is not a paracc executable (bad magic)");
  uint64_t fbSize = 0;
  for (int i = 0; i < 8; ++i)
    fbSize |= uint64_t(base_[8 + i]) << (8 * i);
  if (fbSize > size_ - kHeaderSize || fbSize > (uint64_t(1) << 31))
    return errorf("'", what, "' is truncated or corrupt (program size)");
  const uint8_t *fb = base_ + kHeaderSize;
  {
    flatbuffers::Verifier pre(fb, fbSize);
    if (!pre.VerifyBufferFromStart<VersionOnly>(nullptr, 0))
      return errorf("'", what, "' is corrupt (FlatBuffer verification failed)");
    uint32_t version = flatbuffers::GetRoot<VersionOnly>(fb)->version();
    if (version == 1)
      return errorf("'", what,
                    "' has format version 1 (paracc before program model "
                    "v2: one instruction list over read-only weights); this "
                    "runtime reads version ",
                    kExecutableFormatVersion, ": compile the model again");
    if (version != kExecutableFormatVersion)
      return errorf("'", what, "' has format version ", version,
                    "; this runtime reads ", kExecutableFormatVersion);
  }
  flatbuffers::Verifier verifier(fb, fbSize);
  if (!fb::VerifyProgramBuffer(verifier))
    return errorf("'", what, "' is corrupt (FlatBuffer verification failed)");
  const fb::Program &program = *fb::GetProgram(fb);
  producer_ = program.producer() ? program.producer()->str() : "";
  training_ = program.training() ? program.training()->str() : "";
  if (const auto *parts = program.gradient_norm_parts())
    for (const flatbuffers::String *name : *parts)
      gradientNormParts_.push_back(name ? name->str() : "");
  uint64_t dataOffset = executableDataOffset(fbSize);
  const uint8_t *data = dataOffset <= size_ ? base_ + dataOffset : nullptr;
  size_t dataSize = dataOffset <= size_ ? size_ - dataOffset : 0;

  Decoder d(program, data, dataSize, what,
            [this](const fb::ExternalData *ref, uint64_t expectedSize,
                   const uint8_t *&out, std::string &path,
                   const std::string &context) {
              return mapExternal(ref, expectedSize, out, path, context);
            });
  PARACC_RETURN_IF_ERROR(d.decodeMesh(mesh_));
  d.mesh = &mesh_;
  PARACC_RETURN_IF_ERROR(d.decodeState(state_));
  if (!program.functions() || program.functions()->size() == 0)
    return errorf("'", what, "' has no function");
  for (size_t i = 0; i < program.functions()->size(); ++i) {
    FunctionInfo f;
    PARACC_RETURN_IF_ERROR(
        d.decodeFunction(program.functions()->Get(i), i, state_, f));
    functions_.push_back(std::move(f));
  }
  pipelineAxis_ = program.pipeline_axis();
  costRates_ = program.cost_rates() ? program.cost_rates()->str() : "";
  return linkPipeline(what);
}

StatusOr<std::shared_ptr<MappedFile>>
Executable::externalFile(const std::string &recorded) {
  auto cached = externalFiles_.find(recorded);
  if (cached != externalFiles_.end())
    return cached->second;
  auto opened = MappedFile::open(recorded);
  // Moved together with the executable: the same name next to it (unless
  // that is where it was looked for).
  std::string beside;
  if (!opened && !directory_.empty()) {
    std::string::size_type slash = recorded.rfind('/');
    std::string folder =
        slash == std::string::npos ? "." : recorded.substr(0, slash);
    if (absolutePath(directory_) != absolutePath(folder))
      beside = directory_ + "/" + recorded.substr(slash + 1);
  }
  if (!opened && !beside.empty())
    if (auto besideFile = MappedFile::open(beside))
      opened = std::move(besideFile);
  if (!opened)
    return errorf("its weights are in '", recorded, "', which cannot be read (",
                  opened.status().message(), ")",
                  beside.empty() ? std::string() : ", nor is '" + beside + "'",
                  "; compile the model again, or with --embed-weights to "
                  "carry them in the executable");
  externalFiles_.emplace(recorded, *opened);
  return *opened;
}

Status Executable::mapExternal(const fb::ExternalData *ref,
                               uint64_t expectedSize, const uint8_t *&out,
                               std::string &path, const std::string &context) {
  if (!ref || !ref->path() || ref->path()->size() == 0)
    return errorf(context, ": external data without a file name");
  if (ref->size() != expectedSize)
    return errorf(context, ": external data of ", ref->size(),
                  " bytes for a tensor of ", expectedSize);
  auto opened = externalFile(ref->path()->str());
  if (!opened)
    return opened.status().withContext(context);
  const std::shared_ptr<MappedFile> &file = *opened;
  if (ref->offset() > file->size() || ref->size() > file->size() - ref->offset())
    return errorf(context, ": external data (offset ", ref->offset(), ", ",
                  ref->size(), " bytes) lies outside '", file->path(), "' (",
                  file->size(), " bytes)");
  out = file->data() + ref->offset();
  path = file->path();
  if (fingerprintBytes(out, ref->size()) != ref->fingerprint())
    return errorf(context, ": '", file->path(),
                  "' no longer holds the bytes it held when the executable "
                  "was compiled (fingerprint mismatch); compile the model "
                  "again");
  return Status::ok();
}

/// Groups the functions by name: one function for every rank, or one per
/// pipeline stage with the same inputs; and computes each group's global
/// signature and which state each stage keeps.
Status Executable::linkPipeline(const std::string &what) {
  const int64_t numAxes = int64_t(mesh_.axisSizes.size());
  if (pipelineAxis_ < -1 || pipelineAxis_ >= numAxes)
    return errorf("'", what, "' has pipeline axis ", pipelineAxis_,
                  ", but its mesh has ", numAxes, " axes");
  const int64_t stages =
      pipelineAxis_ < 0 ? 1 : mesh_.axisSizes[pipelineAxis_];
  signatureOf_.assign(functions_.size(), 0);
  stagesOf_.assign(functions_.size(), {});
  stageState_.assign(stages, std::vector<bool>(state_.size(), false));
  std::vector<bool> grouped(functions_.size(), false);
  for (size_t i = 0; i < functions_.size(); ++i) {
    if (grouped[i])
      continue;
    const FunctionInfo &first = functions_[i];
    std::vector<size_t> members;
    for (size_t j = i; j < functions_.size(); ++j)
      if (functions_[j].name == first.name) {
        members.push_back(j);
        grouped[j] = true;
      }
    std::string fn = "'" + what + "': function '" + first.name + "'";
    FunctionSignature sig;
    if (first.stage < 0) {
      if (members.size() != 1)
        return errorf(fn, " is defined twice");
      sig.inputs = first.inputs;
      sig.outputs = first.outputs;
      for (size_t s = 0; s < size_t(stages); ++s) {
        for (const WeightInfo &w : first.weights)
          stageState_[s][w.state] = true;
        for (const StateBinding &b : first.writes)
          stageState_[s][b.state] = true;
      }
    } else {
      if (pipelineAxis_ < 0)
        return errorf(fn, " has pipeline stages, but the program has no "
                          "pipeline axis");
      if (int64_t(members.size()) != stages)
        return errorf(fn, " has ", members.size(), " stages; the pipeline "
                          "axis has ", stages);
      std::vector<size_t> byStage(stages, functions_.size());
      for (size_t j : members) {
        int32_t s = functions_[j].stage;
        if (s < 0 || s >= stages || byStage[s] != functions_.size())
          return errorf(fn, " has stage ", s, " twice or out of range");
        byStage[s] = j;
      }
      members = byStage;
      sig.inputs = functions_[members[0]].inputs;
      for (int64_t s = 0; s < stages; ++s) {
        const FunctionInfo &f = functions_[members[s]];
        if (f.inputs.size() != sig.inputs.size())
          return errorf(fn, ": stage ", s, " has ", f.inputs.size(),
                        " inputs, stage 0 has ", sig.inputs.size());
        for (size_t k = 0; k < f.inputs.size(); ++k) {
          const PortInfo &a = f.inputs[k], &b = sig.inputs[k];
          if (a.name != b.name || a.globalType.dtype != b.globalType.dtype ||
              a.globalType.shape != b.globalType.shape ||
              a.sharding.dimAxes != b.sharding.dimAxes ||
              f.values[a.value].shape !=
                  functions_[members[0]].values[b.value].shape)
            return errorf(fn, ": input ", k, " of stage ", s,
                          " differs from stage 0's");
        }
        for (PortInfo port : f.outputs) {
          for (const PortInfo &other : sig.outputs)
            if (other.name == port.name)
              return errorf(fn, ": output '", port.name,
                            "' comes from two stages");
          port.stage = int32_t(s);
          sig.outputs.push_back(std::move(port));
        }
        for (const WeightInfo &w : f.weights)
          stageState_[s][w.state] = true;
        for (const StateBinding &b : f.writes)
          stageState_[s][b.state] = true;
      }
    }
    for (size_t j : members) {
      signatureOf_[j] = signatures_.size();
      stagesOf_[j] = members;
    }
    signatures_.push_back(std::move(sig));
  }
  return Status::ok();
}

int64_t Executable::stageOf(int64_t rank) const {
  if (pipelineAxis_ < 0)
    return 0;
  return mesh_.coordinates(rank)[pipelineAxis_];
}

size_t Executable::rankFunction(size_t index, int64_t rank) const {
  const std::vector<size_t> &stages = stagesOf_[index];
  if (stages.size() == 1)
    return stages[0];
  return stages[stageOf(rank)];
}

const FunctionSignature &Executable::signature(size_t index) const {
  return signatures_[signatureOf_[index]];
}

bool Executable::holdsState(int64_t rank, size_t index) const {
  if (pipelineAxis_ < 0)
    return true;
  return stageState_[stageOf(rank)][index];
}
