//===- InstructionSet.cpp - Opcode names and the attribute decoder --------===//
//
// Generated from OpCodes.def: the mnemonics, and for each PARACC_ATTRS
// layout a field table (checked by one generic routine) and the reads that
// fill its struct. This file is the one reader of InstrAttrs' lists.
//
//===----------------------------------------------------------------------===//

#include "paracc/runtime/InstructionSet.h"

#include <cstdint>
#include <string>
#include <type_traits>

namespace paracc::rt {

namespace {

const char *const kMnemonics[] = {
#define PARACC_OP(Name, Mnemonic) Mnemonic,
#include "paracc/runtime/OpCodes.def"
#undef PARACC_OP
};
constexpr size_t kNumOpCodes = static_cast<size_t>(OpCode::NumOpCodes);
static_assert(sizeof(kMnemonics) / sizeof(kMnemonics[0]) == kNumOpCodes,
              "one mnemonic per opcode");

enum class FieldKind : uint8_t {
  Int,
  OptionalInt,
  RestOfInts,
  Float,
  RestOfFloats,
  Group
};

/// One declared field: where it is stored and the range an int must be in.
struct FieldSpec {
  FieldKind kind;
  const char *name;
  int64_t lo = INT64_MIN, hi = INT64_MAX;
};

/// "[keepDims, axes...]": the ints of a layout as an error names them.
std::string intLayout(const FieldSpec *fields, size_t n) {
  std::string s = "[";
  for (size_t i = 0; i < n; ++i) {
    if (fields[i].kind == FieldKind::Float ||
        fields[i].kind == FieldKind::RestOfFloats)
      continue;
    if (s.size() > 1)
      s += ", ";
    s += fields[i].name;
    if (fields[i].kind == FieldKind::OptionalInt)
      s += "?";
    if (fields[i].kind == FieldKind::RestOfInts)
      s += "...";
  }
  return s + "]";
}

/// The counts and ranges of `raw` against a layout's fields.
Status checkLayout(OpCode op, const InstrAttrs &raw, const FieldSpec *fields,
                   size_t numFields) {
  const char *mnemonic = opCodeMnemonic(op);
  // A group first: its count and axes, then the rest of the layout.
  if (numFields > 0 && fields[0].kind == FieldKind::Group) {
    const std::vector<int64_t> &ints = raw.ints;
    if (ints.empty() || ints[0] < 0 || uint64_t(ints[0]) > ints.size() - 1)
      return errorf(mnemonic, ": malformed group");
    InstrAttrs rest{{ints.begin() + 1 + ints[0], ints.end()}, raw.floats};
    return checkLayout(op, rest, fields + 1, numFields - 1);
  }
  size_t required = 0, optional = 0, floats = 0;
  bool rest = false, restOfFloats = false;
  for (size_t i = 0; i < numFields; ++i) {
    switch (fields[i].kind) {
    case FieldKind::Int:
      ++required;
      break;
    case FieldKind::OptionalInt:
      ++optional;
      break;
    case FieldKind::RestOfInts:
      rest = true;
      break;
    case FieldKind::Float:
      ++floats;
      break;
    case FieldKind::RestOfFloats:
      restOfFloats = true;
      break;
    case FieldKind::Group: // (first only)
      break;
    }
  }
  const size_t n = raw.ints.size();
  if (!rest && optional == 0 && n != required)
    return errorf(mnemonic, ": expected ", required, " integer attribute",
                  required == 1 ? "" : "s", ", got ", n);
  if (n < required || (!rest && n > required + optional)) {
    const std::string layout = intLayout(fields, numFields);
    if (rest)
      return errorf(mnemonic, ": expected at least ", required,
                    " integer attribute", required == 1 ? " " : "s ", layout,
                    ", got ", n);
    return errorf(mnemonic, ": expected ", required, " to ",
                  required + optional, " integer attributes ", layout, ", got ",
                  n);
  }
  if (restOfFloats ? raw.floats.size() < floats : raw.floats.size() != floats)
    return errorf(mnemonic, ": expected ", restOfFloats ? "at least " : "",
                  floats, " floating attribute", floats == 1 ? "" : "s",
                  ", got ", raw.floats.size());
  size_t next = 0;
  for (size_t i = 0; i < numFields && next < n; ++i) {
    const FieldSpec &f = fields[i];
    if (f.kind == FieldKind::Float || f.kind == FieldKind::RestOfFloats)
      continue;
    if (f.kind == FieldKind::RestOfInts)
      break;
    const int64_t v = raw.ints[next++];
    if (v < f.lo || v > f.hi)
      return errorf(mnemonic, ": ", f.name, " must be in [", f.lo, ", ", f.hi,
                    "], got ", v);
  }
  return Status::ok();
}

// The field tables: k<Name>Fields.
#define PARACC_FLAG(name) {FieldKind::Int, #name, 0, 1},
#define PARACC_INT(name) {FieldKind::Int, #name},
#define PARACC_INT_IN(name, lo, hi) {FieldKind::Int, #name, lo, hi},
#define PARACC_OPT_FLAG(name) {FieldKind::OptionalInt, #name, 0, 1},
#define PARACC_OPT_INT(name, lo, hi, dflt)                                     \
  {FieldKind::OptionalInt, #name, lo, hi},
#define PARACC_INTS(name) {FieldKind::RestOfInts, #name},
#define PARACC_FLOAT(name) {FieldKind::Float, #name},
#define PARACC_FLOATS(name) {FieldKind::RestOfFloats, #name},
#define PARACC_GROUP(name) {FieldKind::Group, #name},
#define PARACC_OP(Name, Mnemonic)
#define PARACC_ATTRS(Name, ...)                                                \
  const FieldSpec k##Name##Fields[] = {__VA_ARGS__};
#include "paracc/runtime/OpCodes.def"
#undef PARACC_ATTRS

// The decoders: decode<Name>, reading a checked layout into its struct.
#define PARACC_FLAG(name) a.name = raw.ints[i++] != 0;
#define PARACC_INT(name) a.name = raw.ints[i++];
#define PARACC_INT_IN(name, lo, hi) a.name = raw.ints[i++];
#define PARACC_OPT_FLAG(name)                                                  \
  if (i < raw.ints.size())                                                     \
    a.name = raw.ints[i++] != 0;
#define PARACC_OPT_INT(name, lo, hi, dflt)                                     \
  if (i < raw.ints.size())                                                     \
    a.name = raw.ints[i++];
#define PARACC_INTS(name)                                                      \
  a.name.assign(raw.ints.begin() + i, raw.ints.end());                         \
  i = raw.ints.size();
#define PARACC_FLOAT(name) a.name = raw.floats[f++];
#define PARACC_FLOATS(name)                                                    \
  a.name.assign(raw.floats.begin() + f, raw.floats.end());                     \
  f = raw.floats.size();
#define PARACC_GROUP(name)                                                     \
  a.name.assign(raw.ints.begin() + 1, raw.ints.begin() + 1 + raw.ints[0]);     \
  i = 1 + size_t(raw.ints[0]);
#define PARACC_ATTRS(Name, ...)                                                \
  Status decode##Name(OpCode op, const InstrAttrs &raw, OpAttrs &out) {        \
    PARACC_RETURN_IF_ERROR(                                                    \
        checkLayout(op, raw, k##Name##Fields,                                  \
                    sizeof(k##Name##Fields) / sizeof(k##Name##Fields[0])));    \
    Name##Attrs a;                                                             \
    [[maybe_unused]] size_t i = 0, f = 0;                                      \
    __VA_ARGS__                                                                \
    out = std::move(a);                                                        \
    return Status::ok();                                                       \
  }
#include "paracc/runtime/OpCodes.def"
#undef PARACC_ATTRS

// The encoders: encode<Name>, the stored form of a struct (an optional int
// written when in range: a default outside it means absent).
#define PARACC_FLAG(name) raw.ints.push_back(a.name ? 1 : 0);
#define PARACC_INT(name) raw.ints.push_back(a.name);
#define PARACC_INT_IN(name, lo, hi) raw.ints.push_back(a.name);
#define PARACC_OPT_FLAG(name) raw.ints.push_back(a.name ? 1 : 0);
#define PARACC_OPT_INT(name, lo, hi, dflt)                                     \
  if (a.name >= (lo) && a.name <= (hi))                                        \
    raw.ints.push_back(a.name);
#define PARACC_INTS(name)                                                      \
  raw.ints.insert(raw.ints.end(), a.name.begin(), a.name.end());
#define PARACC_FLOAT(name) raw.floats.push_back(a.name);
#define PARACC_FLOATS(name)                                                    \
  raw.floats.insert(raw.floats.end(), a.name.begin(), a.name.end());
#define PARACC_GROUP(name)                                                     \
  raw.ints.push_back(int64_t(a.name.size()));                                  \
  raw.ints.insert(raw.ints.end(), a.name.begin(), a.name.end());
#define PARACC_ATTRS(Name, ...)                                                \
  void encode##Name(const Name##Attrs &a, InstrAttrs &raw) { __VA_ARGS__ }
#include "paracc/runtime/OpCodes.def"
#undef PARACC_ATTRS
#undef PARACC_OP

} // namespace

const char *opCodeMnemonic(OpCode op) {
  const size_t i = static_cast<size_t>(op);
  return i < kNumOpCodes ? kMnemonics[i] : "unknown";
}

std::optional<OpCode> opCodeFromMnemonic(std::string_view mnemonic) {
  for (size_t i = 0; i < kNumOpCodes; ++i) {
    if (mnemonic == kMnemonics[i])
      return static_cast<OpCode>(i);
  }
  return std::nullopt;
}

bool isCollective(OpCode op) {
  switch (op) {
  case OpCode::AllReduce:
  case OpCode::AllGather:
  case OpCode::ReduceScatter:
  case OpCode::AllToAll:
  case OpCode::Broadcast:
  case OpCode::Send:
  case OpCode::Recv:
  case OpCode::RingShift:
  case OpCode::AxisIndex:
  case OpCode::LocalShard:
  case OpCode::ExpertParallelMoe:
  case OpCode::ExpertParallelMoeGrad:
    return true;
  default:
    return false;
  }
}

Status decodeOpAttrs(OpCode op, const InstrAttrs &raw, OpAttrs &attrs) {
  switch (op) {
#define PARACC_OP(Name, Mnemonic)
#define PARACC_ATTRS(Name, ...)                                                \
  case OpCode::Name:                                                           \
    return decode##Name(op, raw, attrs);
#define PARACC_SAME_ATTRS(Name, Other)                                         \
  case OpCode::Name:                                                           \
    return decode##Other(op, raw, attrs);
#include "paracc/runtime/OpCodes.def"
#undef PARACC_SAME_ATTRS
#undef PARACC_ATTRS
#undef PARACC_OP
  default:
    break;
  }
  if (static_cast<size_t>(op) >= kNumOpCodes)
    return errorf("unknown: opcode ", static_cast<unsigned>(op),
                  " is out of range");
  attrs = std::monostate();
  const FieldSpec *none = nullptr;
  return checkLayout(op, raw, none, 0);
}

bool attrsFitOpCode(OpCode op, const OpAttrs &attrs) {
  switch (op) {
#define PARACC_OP(Name, Mnemonic)
#define PARACC_ATTRS(Name, ...)                                                \
  case OpCode::Name:                                                           \
    return std::holds_alternative<Name##Attrs>(attrs);
#define PARACC_SAME_ATTRS(Name, Other)                                         \
  case OpCode::Name:                                                           \
    return std::holds_alternative<Other##Attrs>(attrs);
#include "paracc/runtime/OpCodes.def"
#undef PARACC_SAME_ATTRS
#undef PARACC_ATTRS
#undef PARACC_OP
  default:
    return std::holds_alternative<std::monostate>(attrs);
  }
}

InstrAttrs encodeOpAttrs(const OpAttrs &attrs) {
  InstrAttrs raw;
  std::visit(
      [&](const auto &a) {
        using T = std::decay_t<decltype(a)>;
        if constexpr (false) {
        }
#define PARACC_OP(Name, Mnemonic)
#define PARACC_ATTRS(Name, ...)                                                \
  else if constexpr (std::is_same_v<T, Name##Attrs>) encode##Name(a, raw);
#include "paracc/runtime/OpCodes.def"
#undef PARACC_ATTRS
#undef PARACC_OP
      },
      attrs);
  return raw;
}

} // namespace paracc::rt
