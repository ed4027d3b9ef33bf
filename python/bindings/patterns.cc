// The dataflow pattern language and the BYOC registries (relaypass/pattern/, passes/byoc.h):
// pattern nodes as one opaque class (relaypass.relay.dataflow_pattern gives them TVM's Python
// API), match / rewrite / partition, op target attributes, pattern tables, MergeComposite.
// Python callbacks run with the GIL taken; their exceptions reach the caller.
#include "common.h"
#include "relaypass/ir/module.h"
#include "relaypass/passes/byoc.h"
#include "relaypass/pattern/match.h"

namespace relaypass::python {

namespace {

using pattern::DFPattern;
using pattern::DFPatternNode;
using PatternRef = ir::Ref<DFPatternNode>;

// Python's node map: {pattern: [exprs]}.
py::dict NodeMapToPy(const pattern::NodeMap& map,
                     const std::unordered_map<const DFPatternNode*, PatternRef>& patterns) {
  py::dict out;
  for (const auto& [key, exprs] : map) {
    auto it = patterns.find(key);
    if (it == patterns.end()) continue;
    py::list list;
    for (const ir::Expr& e : exprs) list.append(py::cast(e));
    out[py::cast(it->second)] = list;
  }
  return out;
}

// Every pattern node reachable from `p` (to give the node map Python keys).
void CollectPatterns(const PatternRef& root,
                     std::unordered_map<const DFPatternNode*, PatternRef>& out) {
  std::vector<PatternRef> stack{root};
  while (!stack.empty()) {
    PatternRef p = stack.back();
    stack.pop_back();
    if (!p || !out.emplace(p.get(), p).second) continue;
    auto push = [&](const DFPattern& c) { stack.push_back(c); };
    using pattern::PatternKind;
    switch (p->kind) {
      case PatternKind::kCall: {
        auto* n = p.as<pattern::CallPatternNode>();
        push(n->op);
        for (const auto& a : n->args) push(a);
        break;
      }
      case PatternKind::kFunction: {
        auto* n = p.as<pattern::FunctionPatternNode>();
        for (const auto& a : n->params) push(a);
        push(n->body);
        break;
      }
      case PatternKind::kTuple:
        for (const auto& f : p.as<pattern::TuplePatternNode>()->fields) push(f);
        break;
      case PatternKind::kTupleGetItem:
        push(p.as<pattern::TupleGetItemPatternNode>()->tuple);
        break;
      case PatternKind::kIf: {
        auto* n = p.as<pattern::IfPatternNode>();
        push(n->cond);
        push(n->true_branch);
        push(n->false_branch);
        break;
      }
      case PatternKind::kLet: {
        auto* n = p.as<pattern::LetPatternNode>();
        push(n->var);
        push(n->value);
        push(n->body);
        break;
      }
      case PatternKind::kAlt:
        push(p.as<pattern::AltPatternNode>()->left);
        push(p.as<pattern::AltPatternNode>()->right);
        break;
      case PatternKind::kType:
        push(p.as<pattern::TypePatternNode>()->pattern);
        break;
      case PatternKind::kShape:
        push(p.as<pattern::ShapePatternNode>()->pattern);
        break;
      case PatternKind::kDataType:
        push(p.as<pattern::DataTypePatternNode>()->pattern);
        break;
      case PatternKind::kAttr:
        push(p.as<pattern::AttrPatternNode>()->pattern);
        break;
      case PatternKind::kDominator: {
        auto* n = p.as<pattern::DominatorPatternNode>();
        push(n->parent);
        push(n->path);
        push(n->child);
        break;
      }
      default:
        break;
    }
  }
}

std::function<bool(const ir::Expr&)> CheckFromPy(const py::object& check) {
  if (check.is_none()) return nullptr;
  PyRef fn(check);
  return [fn](const ir::Expr& e) {
    py::gil_scoped_acquire gil;
    return CallPython([&] { return py::bool_(fn.get()(e)).cast<bool>(); });
  };
}

std::vector<DFPattern> Patterns(const std::vector<PatternRef>& refs) {
  return {refs.begin(), refs.end()};
}

ir::DataType DType(const std::string& text) {
  auto dtype = ir::DataType::Parse(text);
  if (!dtype) throw relaypass::TypeError("unknown dtype '" + text + "'");
  return *dtype;
}

}  // namespace

void BindPatterns(py::module_& m) {
  py::class_<DFPatternNode, PatternRef>(m, "DFPatternNode")
      .def("__hash__",
           [](const PatternRef& p) { return reinterpret_cast<std::uintptr_t>(p.get()); })
      .def("__eq__", [](const PatternRef& a, const py::object& b) {
        return py::isinstance<DFPatternNode>(b) && a.same_as(b.cast<PatternRef>());
      });

  m.def("pattern_is_op", [](const std::string& name) -> PatternRef { return pattern::IsOp(name); });
  m.def("pattern_wildcard", []() -> PatternRef { return pattern::Wildcard(); });
  m.def("pattern_is_var",
        [](const std::string& name) -> PatternRef { return pattern::IsVar(name); });
  m.def("pattern_is_constant", []() -> PatternRef { return pattern::IsConstant(); });
  m.def("pattern_is_expr", [](const ir::Expr& e) -> PatternRef { return pattern::IsExpr(e); });
  m.def("pattern_is_tuple", [](const std::optional<std::vector<PatternRef>>& fields) -> PatternRef {
    return fields ? pattern::IsTuple(Patterns(*fields)) : pattern::IsTupleAny();
  });
  m.def("pattern_is_tuple_get_item", [](const PatternRef& t, int index) -> PatternRef {
    return pattern::IsTupleGetItem(t, index);
  });
  m.def("pattern_is_if",
        [](const PatternRef& c, const PatternRef& t, const PatternRef& f) -> PatternRef {
          return pattern::IsIf(c, t, f);
        });
  m.def("pattern_is_let",
        [](const PatternRef& v, const PatternRef& val, const PatternRef& b) -> PatternRef {
          return pattern::IsLet(v, val, b);
        });
  m.def("pattern_call",
        [](const PatternRef& op, const std::optional<std::vector<PatternRef>>& args) -> PatternRef {
          DFPattern p(op);
          return args ? p(Patterns(*args)) : p.CallAnyArgs();
        });
  m.def("pattern_alt", [](const PatternRef& a, const PatternRef& b) -> PatternRef {
    return DFPattern(a) | DFPattern(b);
  });
  m.def("pattern_has_attr", [](const PatternRef& p, const py::dict& attrs) -> PatternRef {
    ir::DictAttrs dict;
    for (const auto& [k, v] : attrs) dict.Set(py::str(k), AttrValueFromPy(v));
    return DFPattern(p).HasAttr(std::move(dict));
  });
  m.def("pattern_has_type", [](const PatternRef& p, const ir::Type& t) -> PatternRef {
    return DFPattern(p).HasType(t);
  });
  m.def("pattern_has_dtype", [](const PatternRef& p, const std::string& dtype) -> PatternRef {
    return DFPattern(p).HasDtype(DType(dtype));
  });
  m.def("pattern_has_shape",
        [](const PatternRef& p, const std::vector<int64_t>& shape) -> PatternRef {
          return DFPattern(p).HasShape(shape);
        });
  m.def(
      "pattern_dominates",
      [](const PatternRef& child, const PatternRef& parent, const PatternRef& path) -> PatternRef {
        return DFPattern(child).Dominates(parent, path);
      });

  m.def("pattern_match",
        [](const PatternRef& p, const ir::Expr& e) { return pattern::Match(p, e); });
  m.def(
      "pattern_rewrite",
      [](const py::list& callbacks, const ir::Expr& expr, const std::optional<ir::IRModule>& mod) {
        std::vector<pattern::DFPatternCallback> cbs;
        for (const py::handle& item : callbacks) {
          auto t = item.cast<py::tuple>();
          PatternRef p = t[0].cast<PatternRef>();
          PyRef fn(py::reinterpret_borrow<py::object>(t[1]));
          auto patterns = std::make_shared<std::unordered_map<const DFPatternNode*, PatternRef>>();
          CollectPatterns(p, *patterns);
          pattern::DFPatternCallback cb;
          cb.pattern = p;
          cb.require_type = t[2].cast<bool>();
          cb.rewrite_once = t[3].cast<bool>();
          cb.function = [fn, patterns](const ir::Expr& pre, const ir::Expr& post,
                                       const pattern::NodeMap& map) -> ir::Expr {
            py::gil_scoped_acquire gil;
            return CallPython([&]() -> ir::Expr {
              py::object out = fn.get()(pre, post, NodeMapToPy(map, *patterns));
              if (out.is_none()) return post;
              return out.cast<ir::Expr>();
            });
          };
          cbs.push_back(std::move(cb));
        }
        return pattern::Rewrite(cbs, expr, mod.value_or(ir::IRModule()));
      },
      py::arg("callbacks"), py::arg("expr"), py::arg("mod") = py::none());
  m.def(
      "pattern_partition",
      [](const PatternRef& p, const ir::Expr& expr, const py::object& attrs,
         const py::object& check) {
        return pattern::Partition(p, expr,
                                  attrs.is_none() ? ir::DictAttrs() : DictAttrsFromPy(attrs),
                                  CheckFromPy(check));
      },
      py::arg("pattern"), py::arg("expr"), py::arg("attrs") = py::none(),
      py::arg("check") = py::none());

  // BYOC.
  m.def("register_op_target_attr",
        [](const std::string& op_name, const std::string& attr_name, const py::object& fn) {
          PyRef pred(fn);
          passes::RegisterOpTargetAttr(op_name, attr_name, [pred](const ir::Expr& call) {
            py::gil_scoped_acquire gil;
            return CallPython([&] { return py::bool_(pred.get()(call)).cast<bool>(); });
          });
        });
  m.def("reset_op_target_attr", &passes::ResetOpTargetAttr);
  m.def("merge_composite", [](const py::list& table) {
    passes::PatternTable rows;
    for (const py::handle& item : table) {
      auto t = item.cast<py::tuple>();
      passes::PatternTableEntry row{t[0].cast<std::string>(), t[1].cast<PatternRef>()};
      if (t.size() > 2) row.check = CheckFromPy(py::reinterpret_borrow<py::object>(t[2]));
      rows.push_back(std::move(row));
    }
    return passes::MergeComposite(std::move(rows));
  });
  m.def("builtin_pattern_table", [](const std::string& name) {
    py::list out;
    for (const passes::PatternTableEntry& row : passes::GetPatternTable(name)) {
      out.append(py::make_tuple(row.name, PatternRef(row.pattern)));
    }
    return out;
  });
}

}  // namespace relaypass::python
