#include "relaypass/backend/graph_codegen.h"

#include <nlohmann/json.hpp>

#include <unordered_map>
#include <utility>

#include "graph_memory_plan.h"
#include "lowered_names.h"
#include "relaypass/ir/post_order_index.h"
#include "relaypass/support/error.h"

namespace relaypass::backend {

namespace {

using Json = nlohmann::ordered_json;

// kDLCPU: every tensor lives on the CPU.
constexpr int kCpuDeviceType = 1;

struct NodeRef {
  size_t node;
  size_t index;
};

std::string Where(const ir::ExprNode* e) {
  return e->span.line > 0
             ? std::to_string(e->span.line) + ":" + std::to_string(e->span.column) + ": "
             : "";
}

void FlattenTensorTypes(const ir::Type& type, std::vector<const ir::TensorTypeNode*>* out) {
  if (const auto* tensor = type.as<ir::TensorTypeNode>()) {
    out->push_back(tensor);
  } else if (const auto* tuple = type.as<ir::TupleTypeNode>()) {
    for (const ir::Type& field : tuple->fields) FlattenTensorTypes(field, out);
  }
}

class Codegen {
 public:
  Codegen(const ir::Function& main, const std::string& mod_name)
      : main_(main), plan_(PlanGraphMemory(main)), names_(mod_name) {}

  GraphProgram Run() {
    for (const ir::Var& param : main_->params) {
      refs_[param.get()] = AddNode(InputNode(param->name_hint), param.get());
    }
    ir::PostOrderIndex index;
    index.Add(main_->body,
              [](const ir::ExprNode* e) { return e->kind != ir::ExprKind::kFunction; });
    std::unordered_map<const ir::VarNode*, const ir::ExprNode*> let_values;
    for (ir::PostOrderIndex::Id id : index.post_order()) {
      const ir::ExprNode* e = index.node(id);
      if (e->kind == ir::ExprKind::kLet) {
        const auto* let = static_cast<const ir::LetNode*>(e);
        let_values[let->var.get()] = let->value.get();
      }
    }
    for (ir::PostOrderIndex::Id id : index.post_order()) Visit(index.node(id), let_values);
    return Finish();
  }

 private:
  static Json InputNode(const std::string& name) {
    return Json{{"op", "null"}, {"name", name}, {"inputs", Json::array()}};
  }

  // Appends a node for the value of `e` (its types and storage) and returns its outputs.
  std::vector<NodeRef> AddNode(Json node, const ir::ExprNode* e) {
    std::vector<const ir::TensorTypeNode*> types;
    FlattenTensorTypes(e->checked_type, &types);
    const std::vector<int64_t>& ids = plan_.storage_ids.at(e);
    const size_t id = nodes_.size();
    std::vector<NodeRef> refs;
    for (size_t i = 0; i < types.size(); ++i) {
      Json shape = Json::array();
      for (ir::Dim d : types[i]->shape) shape.push_back(d);
      shapes_.push_back(std::move(shape));
      dltypes_.push_back(types[i]->dtype.ToString());
      storage_ids_.push_back(ids.at(i));
      refs.push_back({id, i});
    }
    if (node["op"] == "null") arg_nodes_.push_back(id);
    nodes_.push_back(std::move(node));
    row_ptr_.push_back(row_ptr_.back() + types.size());
    return refs;
  }

  void Visit(const ir::ExprNode* e,
             const std::unordered_map<const ir::VarNode*, const ir::ExprNode*>& let_values) {
    switch (e->kind) {
      case ir::ExprKind::kVar: {
        auto value = let_values.find(static_cast<const ir::VarNode*>(e));
        if (value != let_values.end()) refs_[e] = Refs(value->second);
        return;
      }
      case ir::ExprKind::kConstant: {
        const std::string name = "p" + std::to_string(program_.param_constants.size());
        ir::Constant constant(
            const_cast<ir::ConstantNode*>(static_cast<const ir::ConstantNode*>(e)));
        program_.params[name] = constant->data;
        program_.param_constants.emplace_back(name, constant);
        refs_[e] = AddNode(InputNode(name), e);
        return;
      }
      case ir::ExprKind::kCall:
        refs_[e] = AddCall(static_cast<const ir::CallNode*>(e));
        return;
      case ir::ExprKind::kTuple: {
        std::vector<NodeRef> fields;
        for (const ir::Expr& f : static_cast<const ir::TupleNode*>(e)->fields) {
          const std::vector<NodeRef>& list = Refs(f.get());
          fields.insert(fields.end(), list.begin(), list.end());
        }
        refs_[e] = std::move(fields);
        return;
      }
      case ir::ExprKind::kTupleGetItem: {
        const auto* get = static_cast<const ir::TupleGetItemNode*>(e);
        refs_[e] = {Refs(get->tuple.get()).at(get->index)};
        return;
      }
      case ir::ExprKind::kLet:
        refs_[e] = Refs(static_cast<const ir::LetNode*>(e)->body.get());
        return;
      default:
        return;  // callees; an If was refused by the memory plan
    }
  }

  std::vector<NodeRef> AddCall(const ir::CallNode* call) {
    const auto* func = call->op.as<ir::FunctionNode>();
    if (!func || !func->is_primitive()) {
      const std::string what =
          call->op.as<ir::OpNode>() ? "a call of operator " + call->op.as<ir::OpNode>()->name +
                                          " outside a fused function (relay.build runs FuseOps)"
          : call->op.as<ir::GlobalVarNode>()
              ? "a call of global function @" + call->op.as<ir::GlobalVarNode>()->name_hint
              : "a call of a function value";
      throw Error(Where(call) + "graph executor: " + what +
                  " is not supported (use the VM: relay.vm.compile or create_executor(\"vm\"))");
    }
    Json inputs = Json::array();
    for (const ir::Expr& arg : call->args) {
      for (const NodeRef& r : Refs(arg.get())) inputs.push_back(Json::array({r.node, r.index, 0}));
    }
    const std::string func_name = names_.NameOf(ir::Function(const_cast<ir::FunctionNode*>(func)));
    std::vector<const ir::TensorTypeNode*> types;
    FlattenTensorTypes(call->checked_type, &types);
    Json attrs = Json::object();
    for (const auto& [key, value] : func->attrs.entries()) {
      if (value.kind() == ir::AttrValue::Kind::kString) attrs[key] = value.as_string();
    }
    const bool nop = IsReshapeOnlyCall(call) &&
                     plan_.storage_ids.at(call) == plan_.storage_ids.at(call->args[0].get());
    const std::string op_name = nop ? "__nop" : func_name;
    attrs["func_name"] = op_name;
    attrs["flatten_data"] = "0";
    attrs["num_inputs"] = std::to_string(inputs.size());
    attrs["num_outputs"] = std::to_string(types.size());
    Json node{{"op", "tvm_op"},
              {"name", nop ? std::string("reshape_nop") : UniqueNodeName(func_name)},
              {"attrs", std::move(attrs)},
              {"inputs", std::move(inputs)}};
    if (!nop) program_.function_names.push_back(func_name);
    return AddNode(std::move(node), call);
  }

  // TVM's GraphExecutorCodegen::_GetUniqueName: name, name1, name2, ...
  std::string UniqueNodeName(std::string name) {
    for (;;) {
      auto it = node_names_.find(name);
      if (it == node_names_.end()) {
        node_names_[name] = 1;
        return name;
      }
      name += std::to_string(it->second++);
    }
  }

  const std::vector<NodeRef>& Refs(const ir::ExprNode* e) {
    auto it = refs_.find(e);
    if (it == refs_.end()) {
      throw Error(Where(e) + "graph executor: a value the graph cannot hold (use the VM)");
    }
    return it->second;
  }

  GraphProgram Finish() {
    Json heads = Json::array();
    for (const NodeRef& r : Refs(main_->body.get()))
      heads.push_back(Json::array({r.node, r.index, 0}));
    Json device_index = Json::array();
    for (size_t i = 0; i < storage_ids_.size(); ++i) device_index.push_back(kCpuDeviceType);
    Json graph{{"nodes", std::move(nodes_)},
               {"arg_nodes", std::move(arg_nodes_)},
               {"heads", std::move(heads)},
               {"attrs",
                {{"dltype", Json::array({"list_str", std::move(dltypes_)})},
                 {"device_index", Json::array({"list_int", std::move(device_index)})},
                 {"storage_id", Json::array({"list_int", std::move(storage_ids_)})},
                 {"shape", Json::array({"list_shape", std::move(shapes_)})}}},
               {"node_row_ptr", std::move(row_ptr_)}};
    program_.json = graph.dump(2);
    return std::move(program_);
  }

  const ir::Function& main_;
  StoragePlan plan_;
  LoweredNames names_;
  GraphProgram program_;
  std::unordered_map<const ir::ExprNode*, std::vector<NodeRef>> refs_;
  std::unordered_map<std::string, int> node_names_;
  Json nodes_ = Json::array();
  std::vector<size_t> arg_nodes_;
  Json shapes_ = Json::array();
  std::vector<std::string> dltypes_;
  std::vector<int64_t> storage_ids_;
  std::vector<size_t> row_ptr_{0};
};

}  // namespace

GraphProgram GraphCodegen(const ir::IRModule& mod, const std::string& mod_name) {
  if (!mod.Contains("main")) throw Error("graph executor: the module has no main function");
  const ir::Function main = mod.Lookup("main");
  return Codegen(main, mod_name).Run();
}

}  // namespace relaypass::backend
