//===- PrettyToGeneric.cpp - StableHLO's pretty form to generic -*- C++ -*-===//

#include "PrettyToGeneric.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>

using namespace mlir::paracc::stablehlo;
using llvm::SmallVector;
using llvm::StringRef;

namespace {

/// Where a line's op could not be read: a column and what was expected.
struct ParseError {
  size_t column;
  std::string message;
  /// The message is whole (not about reading the op's syntax).
  bool whole = false;
};

/// The ops whose pretty form is read (the importer converts them all).
bool isKnownOp(StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"stablehlo.add", "stablehlo.subtract", "stablehlo.multiply",
              "stablehlo.divide", "stablehlo.maximum", "stablehlo.minimum",
              "stablehlo.power", "stablehlo.remainder", "stablehlo.clamp"},
             true)
      .Cases({"stablehlo.and", "stablehlo.or", "stablehlo.xor",
              "stablehlo.negate", "stablehlo.abs", "stablehlo.sign",
              "stablehlo.sqrt", "stablehlo.rsqrt"},
             true)
      .Cases({"stablehlo.exponential", "stablehlo.log", "stablehlo.tanh",
              "stablehlo.logistic", "stablehlo.floor", "stablehlo.ceil",
              "stablehlo.round_nearest_even", "stablehlo.not"},
             true)
      .Cases({"stablehlo.sine", "stablehlo.cosine", "stablehlo.tan",
              "stablehlo.exponential_minus_one", "stablehlo.log_plus_one"},
             true)
      .Cases({"chlo.tan", "chlo.erf", "chlo.sinh", "chlo.cosh", "chlo.asin",
              "chlo.acos", "chlo.atan", "chlo.square"},
             true)
      .Cases({"stablehlo.select", "stablehlo.convert", "stablehlo.reshape",
              "stablehlo.constant", "stablehlo.broadcast_in_dim",
              "stablehlo.transpose", "stablehlo.concatenate"},
             true)
      .Cases({"stablehlo.dot_general", "stablehlo.iota", "stablehlo.compare",
              "stablehlo.slice", "stablehlo.reduce"},
             true)
      .Cases({"chlo.erfc", "chlo.top_k", "stablehlo.convolution",
              "stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice",
              "stablehlo.return", "stablehlo.pad"},
             true)
      .Default(false);
}

/// A cursor over the text after an op's name.
class Cursor {
public:
  explicit Cursor(StringRef text) : text(text) {}

  void skipSpaces() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t'))
      ++pos;
  }
  bool atEnd() {
    skipSpaces();
    return pos >= text.size();
  }
  bool peek(StringRef s) {
    skipSpaces();
    return text.substr(pos).starts_with(s);
  }
  bool consume(StringRef s) {
    if (!peek(s))
      return false;
    pos += s.size();
    return true;
  }
  /// `%name` (with an optional `#N` result index).
  std::optional<StringRef> value() {
    skipSpaces();
    if (pos >= text.size() || text[pos] != '%')
      return std::nullopt;
    size_t start = pos++;
    while (pos < text.size() &&
           (isalnum(static_cast<unsigned char>(text[pos])) ||
            StringRef("_.$-#").contains(text[pos])))
      ++pos;
    return text.slice(start, pos);
  }
  /// An identifier (a keyword such as GE or SIGNED, an attribute name).
  std::optional<StringRef> word() {
    skipSpaces();
    size_t start = pos;
    while (pos < text.size() &&
           (isalnum(static_cast<unsigned char>(text[pos])) ||
            text[pos] == '_'))
      ++pos;
    if (pos == start)
      return std::nullopt;
    return text.slice(start, pos);
  }
  /// `[1, 2]` as its integers.
  std::optional<SmallVector<int64_t>> intList() {
    if (!consume("["))
      return std::nullopt;
    SmallVector<int64_t> values;
    if (consume("]"))
      return values;
    while (true) {
      skipSpaces();
      size_t start = pos;
      if (pos < text.size() && text[pos] == '-')
        ++pos;
      while (pos < text.size() && isdigit(static_cast<unsigned char>(text[pos])))
        ++pos;
      int64_t v;
      if (text.slice(start, pos).getAsInteger(10, v))
        return std::nullopt;
      values.push_back(v);
      if (consume("]"))
        return values;
      if (!consume(","))
        return std::nullopt;
    }
  }
  /// The rest of the text after the top-level `:` that starts the types
  /// (brackets of any kind nest).
  std::optional<StringRef> typesAfterColon() {
    skipSpaces();
    int depth = 0;
    for (size_t i = pos; i < text.size(); ++i) {
      char c = text[i];
      if (c == '(' || c == '[' || c == '<' || c == '{')
        ++depth;
      else if (c == ')' || c == ']' || c == '>' || c == '}')
        --depth;
      else if (c == ':' && depth == 0) {
        if (!text.slice(pos, i).trim().empty())
          return std::nullopt;
        pos = text.size();
        return text.substr(i + 1).trim();
      }
    }
    return std::nullopt;
  }

  StringRef text;
  size_t pos = 0;
};

/// Splits at top-level commas.
SmallVector<StringRef> splitTopLevel(StringRef text) {
  SmallVector<StringRef> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '(' || c == '[' || c == '<' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '>' || c == '}')
      --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (!text.slice(start, text.size()).trim().empty())
    parts.push_back(text.slice(start, text.size()).trim());
  return parts;
}

/// The position of a top-level `->`, or npos.
size_t topLevelArrow(StringRef text) {
  int depth = 0;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (c == '-' && text[i + 1] == '>' && depth == 0)
      return i;
    if (c == '(' || c == '[' || c == '<' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '>' || c == '}')
      --depth;
  }
  return StringRef::npos;
}

/// Operand and result types from the pretty form's type part: `T` (every
/// operand and the result), `A -> R`, `(A, B) -> R`, or `P, T` (select).
struct Types {
  SmallVector<std::string> operands;
  std::string result;
};

std::optional<Types> readTypes(StringRef text, size_t numOperands,
                               bool select) {
  Types types;
  size_t arrow = topLevelArrow(text);
  if (arrow != StringRef::npos) {
    StringRef lhs = text.substr(0, arrow).trim();
    types.result = text.substr(arrow + 2).trim().str();
    if (lhs.consume_front("(")) {
      if (!lhs.consume_back(")"))
        return std::nullopt;
    }
    for (StringRef t : splitTopLevel(lhs))
      types.operands.push_back(t.str());
    if (types.operands.size() != numOperands)
      return std::nullopt;
    return types;
  }
  SmallVector<StringRef> parts = splitTopLevel(text);
  if (select && parts.size() == 2) {
    types.operands = {parts[0].str(), parts[1].str(), parts[1].str()};
    types.result = parts[1].str();
    return types;
  }
  if (parts.size() != 1)
    return std::nullopt;
  types.operands.assign(numOperands, parts[0].str());
  types.result = parts[0].str();
  return types;
}

std::string i64Array(llvm::ArrayRef<int64_t> values) {
  std::string s = "array<i64";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : ": ") + std::to_string(values[i]);
  return s + ">";
}

std::string intList(llvm::ArrayRef<int64_t> values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

std::string join(llvm::ArrayRef<std::string> parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i)
    s += (i ? ", " : "") + parts[i];
  return s;
}

/// One pretty op's parts, to be printed in generic form.
struct GenericOp {
  std::string name;
  SmallVector<std::string> operands;
  SmallVector<std::string> properties;
  std::string region;
  Types types;

  std::string print() const {
    std::string s = "\"" + name + "\"(" + join(operands) + ")";
    if (!properties.empty())
      s += " <{" + join(properties) + "}>";
    if (!region.empty())
      s += " (" + region + ")";
    return s + " : (" + join(types.operands) + ") -> " + types.result;
  }
};

/// Reads `%a, %b, ...` and, after them, `key = value` attributes until the
/// types; `attribute` handles each key (false: unknown).
template <typename AttributeFn>
std::optional<ParseError> readOperandsAndAttributes(Cursor &c, GenericOp &op,
                                                    AttributeFn attribute) {
  while (auto v = c.value()) {
    op.operands.push_back(v->str());
    if (!c.consume(","))
      return std::nullopt;
  }
  while (!c.peek(":")) {
    size_t at = c.pos;
    auto key = c.word();
    if (!key || !c.consume("="))
      return ParseError{at, "expected an operand or 'name = value'"};
    if (!attribute(*key))
      return ParseError{at, "unknown attribute '" + key->str() + "'"};
    if (!c.consume(","))
      break;
  }
  return std::nullopt;
}

std::optional<ParseError> finishTypes(Cursor &c, GenericOp &op,
                                      bool select = false) {
  size_t at = c.pos;
  auto types = c.typesAfterColon();
  if (!types)
    return ParseError{at, "expected ': TYPES'"};
  auto parsed = readTypes(*types, op.operands.size(), select);
  if (!parsed)
    return ParseError{at, "cannot read the types '" + types->str() + "'"};
  op.types = *parsed;
  return std::nullopt;
}

/// A convolution's pretty form after its name, as StableHLO prints it:
/// `(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
/// window = {stride = [2, 2], pad = [[0, 0], [1, 1]], lhs_dilate = [1, 1],
/// rhs_dilate = [1, 1], reverse = [false, false]} {feature_group_count = 1
/// : i64, ...} : (A, B) -> R` (the window and the dictionary optional).
std::optional<ParseError> readConvolution(Cursor &c, GenericOp &op) {
  auto lhs = c.consume("(") ? c.value() : std::nullopt;
  auto rhs = (lhs && c.consume(",")) ? c.value() : std::nullopt;
  if (!rhs || !c.consume(")"))
    return ParseError{c.pos, "expected '(%lhs, %rhs)'"};
  op.operands = {lhs->str(), rhs->str()};
  if (!c.consume("dim_numbers") || !c.consume("="))
    return ParseError{c.pos, "expected 'dim_numbers = ...'"};
  c.skipSpaces();
  size_t start = c.pos;
  for (int depth = 0; c.pos < c.text.size(); ++c.pos) {
    char ch = c.text[c.pos];
    if (ch == '[')
      ++depth;
    else if (ch == ']')
      --depth;
    else if (depth == 0 && StringRef(", {:").contains(ch))
      break;
  }
  op.properties.push_back("dimension_numbers = #stablehlo.conv<" +
                          c.text.slice(start, c.pos).str() + ">");
  if (c.consume(",")) {
    if (!c.consume("window") || !c.consume("=") || !c.consume("{"))
      return ParseError{c.pos, "expected 'window = {...}'"};
    while (!c.consume("}")) {
      size_t at = c.pos;
      auto key = c.word();
      if (!key || !c.consume("="))
        return ParseError{at, "expected 'name = value' in the window"};
      StringRef property = llvm::StringSwitch<StringRef>(*key)
                               .Case("stride", "window_strides")
                               .Case("lhs_dilate", "lhs_dilation")
                               .Case("rhs_dilate", "rhs_dilation")
                               .Default("");
      if (!property.empty()) {
        auto values = c.intList();
        if (!values)
          return ParseError{c.pos, "expected '[N, ...]'"};
        op.properties.push_back(property.str() + " = " + i64Array(*values));
      } else if (*key == "pad") {
        SmallVector<std::string> rows;
        if (!c.consume("["))
          return ParseError{c.pos, "expected '[[lo, hi], ...]'"};
        while (auto row = c.intList()) {
          if (row->size() != 2)
            return ParseError{c.pos, "expected '[lo, hi]'"};
          rows.push_back(intList(*row));
          if (!c.consume(","))
            break;
        }
        if (!c.consume("]"))
          return ParseError{c.pos, "expected ']'"};
        op.properties.push_back("padding = dense<[" + join(rows) +
                                "]> : tensor<" + std::to_string(rows.size()) +
                                "x2xi64>");
      } else if (*key == "reverse") {
        SmallVector<std::string> flags;
        if (!c.consume("["))
          return ParseError{c.pos, "expected '[true|false, ...]'"};
        while (auto flag = c.word()) {
          flags.push_back(flag->str());
          if (!c.consume(","))
            break;
        }
        if (!c.consume("]"))
          return ParseError{c.pos, "expected ']'"};
        op.properties.push_back("window_reversal = array<i1: " + join(flags) +
                                ">");
      } else {
        return ParseError{at, "unknown window field '" + key->str() + "'"};
      }
      c.consume(",");
    }
  }
  if (c.consume("{")) {
    // The dictionary's entries are properties as written.
    size_t from = c.pos;
    int depth = 1;
    for (; c.pos < c.text.size() && depth > 0; ++c.pos) {
      char ch = c.text[c.pos];
      if (ch == '{' || ch == '[' || ch == '<' || ch == '(')
        ++depth;
      else if (ch == '}' || ch == ']' || ch == '>' || ch == ')')
        --depth;
    }
    if (depth != 0)
      return ParseError{from, "expected '}'"};
    for (StringRef entry : splitTopLevel(c.text.slice(from, c.pos - 1)))
      op.properties.push_back(entry.str());
  }
  return finishTypes(c, op);
}

/// Rewrites one pretty op (`name` and the text after it); `tag` makes the
/// names of a reduce region's values unique.
std::optional<ParseError> rewriteOp(StringRef name, StringRef rest,
                                    StringRef resultName, size_t tag,
                                    std::string &out) {
  if (!isKnownOp(name))
    return ParseError{0, "unsupported op '" + name.str() + "'", true};
  Cursor c(rest);
  GenericOp op;
  op.name = name.str();
  std::optional<ParseError> error;
  if (name == "stablehlo.constant") {
    // `dense<...> : tensor<...>`: the value keeps its type.
    StringRef value = rest.trim();
    size_t colon = value.rfind(" : ");
    if (colon == StringRef::npos)
      return ParseError{0, "expected 'VALUE : TYPE'"};
    op.properties.push_back("value = " + value.str());
    op.types.result = value.substr(colon + 3).trim().str();
    out = op.print();
    if (!resultName.empty())
      out.insert(out.find(" : ()"),
                 " {paracc.name = \"" + resultName.drop_front().str() + "\"}");
    return std::nullopt;
  }
  if (name == "stablehlo.iota") {
    size_t at = c.pos;
    int64_t dim;
    auto key = c.word();
    if (!key || *key != "dim" || !c.consume("=") ||
        c.word().value_or("").getAsInteger(10, dim))
      return ParseError{at, "expected 'dim = N'"};
    op.properties.push_back("iota_dimension = " + std::to_string(dim) +
                            " : i64");
    error = finishTypes(c, op);
  } else if (name == "stablehlo.compare") {
    auto direction = c.word();
    if (!direction || !c.consume(","))
      return ParseError{c.pos, "expected a comparison direction (EQ, LT, ...)"};
    op.properties.push_back("comparison_direction = "
                            "#stablehlo<comparison_direction " +
                            direction->str() + ">");
    while (auto v = c.value()) {
      op.operands.push_back(v->str());
      if (!c.consume(","))
        break;
    }
    if (!c.peek(":")) {
      auto type = c.word();
      if (!type)
        return ParseError{c.pos, "expected a comparison type"};
      op.properties.push_back("compare_type = #stablehlo<comparison_type " +
                              type->str() + ">");
    }
    error = finishTypes(c, op);
  } else if (name == "stablehlo.slice") {
    auto v = c.value();
    if (!v || !c.consume("["))
      return ParseError{c.pos, "expected '%operand [start:limit, ...]'"};
    op.operands.push_back(v->str());
    SmallVector<int64_t> starts, limits, strides;
    while (true) {
      SmallVector<int64_t> parts;
      for (int i = 0; i < 3; ++i) {
        auto w = c.word();
        int64_t n;
        if (!w || w->getAsInteger(10, n))
          break;
        parts.push_back(n);
        if (!c.consume(":"))
          break;
      }
      if (parts.size() < 2)
        return ParseError{c.pos, "expected 'start:limit[:stride]'"};
      starts.push_back(parts[0]);
      limits.push_back(parts[1]);
      strides.push_back(parts.size() == 3 ? parts[2] : 1);
      if (c.consume("]"))
        break;
      if (!c.consume(","))
        return ParseError{c.pos, "expected ',' or ']'"};
    }
    op.properties.push_back("start_indices = " + i64Array(starts));
    op.properties.push_back("limit_indices = " + i64Array(limits));
    op.properties.push_back("strides = " + i64Array(strides));
    error = finishTypes(c, op);
  } else if (name == "stablehlo.return") {
    // `stablehlo.return %a, %b : T1, T2` (a region's terminator).
    while (auto v = c.value()) {
      op.operands.push_back(v->str());
      if (!c.consume(","))
        break;
    }
    size_t at = c.pos;
    auto types = c.typesAfterColon();
    if (!types && !op.operands.empty())
      return ParseError{at, "expected ': TYPES'"};
    for (StringRef t : splitTopLevel(types.value_or("")))
      op.types.operands.push_back(t.str());
    if (op.types.operands.size() != op.operands.size())
      return ParseError{at, "expected one type per operand"};
    op.types.result = "()";
  } else if (name == "chlo.top_k") {
    // `chlo.top_k(%x, k = 2) : T -> (T1, T2)`.
    auto x = c.consume("(") ? c.value() : std::nullopt;
    int64_t k;
    if (!x || !c.consume(",") || !c.consume("k") || !c.consume("=") ||
        c.word().value_or("").getAsInteger(10, k) || !c.consume(")"))
      return ParseError{c.pos, "expected '(%operand, k = N)'"};
    op.operands.push_back(x->str());
    op.properties.push_back("k = " + std::to_string(k) + " : i64");
    error = finishTypes(c, op);
  } else if (name == "stablehlo.convolution") {
    if ((error = readConvolution(c, op)))
      return error;
  } else if (name == "stablehlo.reduce") {
    // `(%x init: %c) applies stablehlo.add across dimensions = [1]`.
    auto x = (c.consume("(") ? c.value() : std::nullopt);
    auto init = (x && c.consume("init") && c.consume(":")) ? c.value()
                                                           : std::nullopt;
    if (!init || !c.consume(")"))
      return ParseError{c.pos, "expected '(%operand init: %init)'"};
    if (!c.consume("applies"))
      return ParseError{c.pos, "only 'applies OP across dimensions = [...]' "
                               "reductions are read (the reducer-region "
                               "form is not supported)"};
    c.skipSpaces();
    size_t start = c.pos;
    while (c.pos < rest.size() && rest[c.pos] != ' ')
      ++c.pos;
    std::string body = rest.slice(start, c.pos).str();
    SmallVector<int64_t> dims;
    auto list = (c.consume("across") && c.consume("dimensions") &&
                 c.consume("="))
                    ? c.intList()
                    : std::nullopt;
    if (!list)
      return ParseError{c.pos, "expected 'across dimensions = [...]'"};
    op.operands = {x->str(), init->str()};
    op.properties.push_back("dimensions = " + i64Array(*list));
    if ((error = finishTypes(c, op)))
      return error;
    // The body: `body(a, b)` on rank-0 values of the init's type.
    const std::string &t = op.types.operands[1];
    std::string a = "%__r" + std::to_string(tag) + "a",
                b = "%__r" + std::to_string(tag) + "b",
                r = "%__r" + std::to_string(tag) + "r";
    op.region = "{ ^bb0(" + a + ": " + t + ", " + b + ": " + t + "): " + r +
                " = \"" + body + "\"(" + a + ", " + b + ") : (" + t + ", " + t +
                ") -> " + t + " \"stablehlo.return\"(" + r + ") : (" + t +
                ") -> () }";
  } else {
    // Operands, then this op's `key = value` attributes.
    std::optional<SmallVector<int64_t>> lhsBatch, rhsBatch, lhsContract,
        rhsContract;
    auto readPair = [&](std::optional<SmallVector<int64_t>> &lhs,
                        std::optional<SmallVector<int64_t>> &rhs) {
      lhs = c.intList();
      return lhs && c.consume("x") && (rhs = c.intList()).has_value();
    };
    error = readOperandsAndAttributes(c, op, [&](StringRef key) {
      if (key == "dims") {
        auto dims = c.intList();
        if (!dims)
          return false;
        op.properties.push_back(
            (name == "stablehlo.transpose" ? "permutation = "
                                           : "broadcast_dimensions = ") +
            i64Array(*dims));
        return name == "stablehlo.transpose" ||
               name == "stablehlo.broadcast_in_dim";
      }
      if (key == "dim") {
        auto w = c.word();
        int64_t d;
        if (!w || w->getAsInteger(10, d))
          return false;
        op.properties.push_back("dimension = " + std::to_string(d) + " : i64");
        return name == "stablehlo.concatenate";
      }
      if (key == "sizes") {
        auto sizes = c.intList();
        if (!sizes)
          return false;
        op.properties.push_back("slice_sizes = " + i64Array(*sizes));
        return name == "stablehlo.dynamic_slice";
      }
      if (key == "low" || key == "high" || key == "interior") {
        // stablehlo.pad's `low = [..], high = [..], interior = [..]`.
        auto list = c.intList();
        if (!list)
          return false;
        op.properties.push_back((key == "low"    ? "edge_padding_low = "
                                 : key == "high" ? "edge_padding_high = "
                                                 : "interior_padding = ") +
                                i64Array(*list));
        return name == "stablehlo.pad";
      }
      if (key == "batching_dims")
        return readPair(lhsBatch, rhsBatch);
      if (key == "contracting_dims")
        return readPair(lhsContract, rhsContract);
      if (key == "precision" || key == "algorithm") {
        // Precision hints: paracc's products run at the chosen precision.
        int depth = 0;
        c.skipSpaces();
        while (c.pos < rest.size()) {
          char ch = rest[c.pos];
          if (ch == '[' || ch == '<')
            ++depth;
          else if (ch == ']' || ch == '>')
            --depth;
          else if ((ch == ',' || ch == ':') && depth == 0)
            break;
          ++c.pos;
        }
        return true;
      }
      return false;
    });
    if (error)
      return error;
    if (name == "stablehlo.dot_general") {
      std::string dims;
      auto add = [&](const char *field,
                     const std::optional<SmallVector<int64_t>> &v) {
        if (v && !v->empty())
          dims += std::string(dims.empty() ? "" : ", ") + field + " = " +
                  intList(*v);
      };
      add("lhs_batching_dimensions", lhsBatch);
      add("rhs_batching_dimensions", rhsBatch);
      add("lhs_contracting_dimensions", lhsContract);
      add("rhs_contracting_dimensions", rhsContract);
      op.properties.push_back("dot_dimension_numbers = #stablehlo.dot<" +
                              dims + ">");
    }
    error = finishTypes(c, op, name == "stablehlo.select");
  }
  if (error)
    return error;
  out = op.print();
  return std::nullopt;
}

/// An op with regions being rewritten: a stablehlo.while (its block
/// arguments `%a: T, ...`, its types `T, ...` and whether its body (`do`)
/// has started) or a stablehlo.reduce in the reducer-region form (whether
/// its `reducer(...) {` line is still to come, and the generic op's tail
/// after the region).
struct RegionFrame {
  bool isReduce = false;
  std::string blockArguments;
  std::string types;
  bool inBody = false;
  bool awaitingReducer = false;
  std::string tail;
};

/// `(%x init: %c), (%y init: %d) across dimensions = [0] : (TYPES) ->
/// RESULTS` after `stablehlo.reduce` (the reducer-region form, whose body
/// follows on the next lines): the generic op's head; its tail (the
/// dimensions and types) is kept for the region's closing line.
std::optional<ParseError> readReduceHead(Cursor &c, std::string &out,
                                         RegionFrame &frame) {
  SmallVector<std::string> inputs, inits;
  do {
    auto x = c.consume("(") ? c.value() : std::nullopt;
    auto init =
        (x && c.consume("init") && c.consume(":")) ? c.value() : std::nullopt;
    if (!init || !c.consume(")"))
      return ParseError{c.pos, "expected '(%operand init: %init)'"};
    inputs.push_back(x->str());
    inits.push_back(init->str());
  } while (c.consume(","));
  auto dims = (c.consume("across") && c.consume("dimensions") && c.consume("="))
                  ? c.intList()
                  : std::nullopt;
  if (!dims)
    return ParseError{c.pos, "expected 'across dimensions = [...]'"};
  size_t at = c.pos;
  auto types = c.typesAfterColon();
  if (!types || topLevelArrow(*types) == StringRef::npos)
    return ParseError{at, "expected ': (OPERAND TYPES) -> RESULTS'"};
  SmallVector<std::string> operands = inputs;
  operands.append(inits.begin(), inits.end());
  frame.isReduce = true;
  frame.awaitingReducer = true;
  frame.tail = "}) {dimensions = " + i64Array(*dims) + "} : " + types->str();
  out = "\"stablehlo.reduce\"(" + join(operands) + ") ({";
  return std::nullopt;
}

/// `reducer(%a: T, %b: T) (%c: U, %d: U) {`, one pair per reduced operand:
/// the block arguments in the generic order, every pair's first (the
/// accumulated values) then every pair's second.
std::optional<std::string> readReducerArguments(StringRef line) {
  Cursor c(line);
  if (!c.consume("reducer"))
    return std::nullopt;
  SmallVector<std::string> firsts, seconds;
  while (c.consume("(")) {
    auto a = c.value();
    size_t colon = a ? c.text.find(',', c.pos) : StringRef::npos;
    if (!a || !c.consume(":") || colon == StringRef::npos)
      return std::nullopt;
    std::string aType = c.text.slice(c.pos, colon).trim().str();
    c.pos = colon + 1;
    auto b = c.value();
    size_t close = b ? c.text.find(')', c.pos) : StringRef::npos;
    if (!b || !c.consume(":") || close == StringRef::npos)
      return std::nullopt;
    std::string bType = c.text.slice(c.pos, close).trim().str();
    c.pos = close + 1;
    firsts.push_back(a->str() + ": " + aType);
    seconds.push_back(b->str() + ": " + bType);
  }
  if (firsts.empty() || !c.consume("{") || !c.atEnd())
    return std::nullopt;
  firsts.append(seconds.begin(), seconds.end());
  return "^bb0(" + join(firsts) + "):";
}

/// `(%iterArg = %x, ...) : T, ...` after `stablehlo.while`: the generic
/// op's head up to its first region's block arguments.
std::optional<ParseError> readWhileHead(Cursor &c, std::string &out,
                                        RegionFrame &frame) {
  if (!c.consume("("))
    return ParseError{c.pos, "expected '(%iterArg = %init, ...)'"};
  SmallVector<std::string> names, inits;
  while (!c.consume(")")) {
    auto name = c.value();
    auto init = (name && c.consume("=")) ? c.value() : std::nullopt;
    if (!init)
      return ParseError{c.pos, "expected '%iterArg = %init'"};
    names.push_back(name->str());
    inits.push_back(init->str());
    c.consume(",");
  }
  size_t at = c.pos;
  auto types = c.typesAfterColon();
  SmallVector<StringRef> typeList = splitTopLevel(types.value_or(""));
  if (!types || typeList.size() != names.size())
    return ParseError{at, "expected one type per carried value"};
  SmallVector<std::string> arguments, typeNames;
  for (auto [name, type] : llvm::zip(names, typeList)) {
    arguments.push_back(name + ": " + type.str());
    typeNames.push_back(type.str());
  }
  frame.blockArguments = join(arguments);
  frame.types = join(typeNames);
  out = "\"stablehlo.while\"(" + join(inits) + ") ({\n^bb0(" +
        frame.blockArguments + "):";
  return std::nullopt;
}

} // namespace

RewriteResult mlir::paracc::stablehlo::prettyToGeneric(StringRef text) {
  RewriteResult result;
  result.text.reserve(text.size() + text.size() / 8);
  unsigned lineNo = 0;
  // The stablehlo.while ops and reducer-region reduces whose regions are
  // open, innermost last: a loop's `cond {`, `} do {` and closing `}`
  // lines, a reduce's `reducer(...) {` and closing `}` lines become the
  // generic regions.
  SmallVector<RegionFrame> loops;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    ++lineNo;
    StringRef trimmed = line.trim();
    if (!loops.empty() && loops.back().isReduce) {
      if (loops.back().awaitingReducer) {
        std::optional<std::string> arguments = readReducerArguments(trimmed);
        if (!arguments) {
          result.ok = false;
          result.line = lineNo;
          result.column = 1;
          result.error = "expected the reduce's 'reducer(%a: T, %b: T) ... {' "
                         "line";
          return result;
        }
        loops.back().awaitingReducer = false;
        result.text += *arguments + "\n";
        continue;
      }
      if (trimmed == "}") {
        result.text += loops.back().tail + "\n";
        loops.pop_back();
        continue;
      }
    } else if (!loops.empty()) {
      if (trimmed == "cond {" && !loops.back().inBody)
        continue;
      if (trimmed == "} do {" && !loops.back().inBody) {
        loops.back().inBody = true;
        result.text += "}, {\n^bb0(" + loops.back().blockArguments + "):\n";
        continue;
      }
      if (trimmed == "}" && loops.back().inBody) {
        result.text += "}) : (" + loops.back().types + ") -> (" +
                       loops.back().types + ")\n";
        loops.pop_back();
        continue;
      }
    }
    // `[%r = ]stablehlo.op ...` or `chlo.op ...` (generic ops are quoted).
    StringRef body = line.ltrim();
    size_t indent = line.size() - body.size();
    StringRef resultPart;
    if (body.starts_with("%")) {
      size_t eq = body.find(" = ");
      if (eq != StringRef::npos) {
        resultPart = body.substr(0, eq + 3);
        body = body.substr(eq + 3);
      }
    }
    // Shardy's mesh (JAX lowering with shardings): kept as an op without
    // operands whose text paracc does not read.
    if (body.starts_with("sdy.mesh ")) {
      std::string text = body.drop_front(9).str(), escaped;
      for (char c : text) {
        if (c == '"' || c == '\\')
          escaped += '\\';
        escaped += c;
      }
      result.text += line.substr(0, indent).str() +
                     "\"sdy.mesh\"() {paracc.text = \"" + escaped +
                     "\"} : () -> ()\n";
      continue;
    }
    // jax.lax.with_sharding_constraint: `sdy.sharding_constraint %x <@mesh,
    // [{"a"}, {}]> : T`, the sharding kept as text the converter reads.
    if (body.starts_with("sdy.sharding_constraint ")) {
      Cursor c(body.drop_front(24));
      auto x = c.value();
      size_t colon = body.rfind(" : ");
      if (!x || colon == StringRef::npos || colon < 24 + c.pos) {
        result.ok = false;
        result.line = lineNo;
        result.column = unsigned(indent + resultPart.size() + 1);
        result.error = "cannot read 'sdy.sharding_constraint': expected "
                       "'%value <@mesh, [...]> : TYPE'";
        return result;
      }
      std::string sharding = body.slice(24 + c.pos, colon).trim().str(),
                  type = body.substr(colon + 3).trim().str(), escaped;
      for (char ch : sharding) {
        if (ch == '"' || ch == '\\')
          escaped += '\\';
        escaped += ch;
      }
      result.text += line.substr(0, indent).str() + resultPart.str() +
                     "\"sdy.sharding_constraint\"(" + x->str() +
                     ") {paracc.text = \"" + escaped + "\"} : (" + type +
                     ") -> " + type + "\n";
      continue;
    }
    if (!body.starts_with("stablehlo.") && !body.starts_with("chlo.")) {
      result.text += line.str();
      result.text += '\n';
      continue;
    }
    size_t nameEnd = body.find_first_of(" (");
    StringRef name = body.substr(0, nameEnd);
    StringRef args = nameEnd == StringRef::npos ? "" : body.substr(nameEnd);
    std::string generic;
    StringRef resultName = resultPart.split(' ').first.split(':').first;
    std::optional<ParseError> error;
    if (name == "stablehlo.while") {
      Cursor c(args);
      loops.emplace_back();
      error = readWhileHead(c, generic, loops.back());
    } else if (name == "stablehlo.reduce" && !args.contains(" applies ")) {
      Cursor c(args);
      loops.emplace_back();
      error = readReduceHead(c, generic, loops.back());
    } else {
      error = rewriteOp(name, args, resultName, lineNo, generic);
    }
    if (error) {
      result.ok = false;
      result.line = lineNo;
      result.column =
          unsigned(indent + resultPart.size() + name.size() + error->column + 1);
      result.error = error->whole ? error->message
                                  : "cannot read '" + name.str() +
                                        "': " + error->message;
      return result;
    }
    result.text += line.substr(0, indent).str() + resultPart.str() + generic;
    result.text += '\n';
  }
  if (!loops.empty()) {
    result.ok = false;
    result.line = lineNo;
    result.column = 1;
    result.error = loops.back().isReduce
                       ? "a stablehlo.reduce's reducer region is not closed"
                       : "a stablehlo.while's regions are not closed ('cond "
                         "{', '} do {' and '}' lines expected)";
  }
  return result;
}
