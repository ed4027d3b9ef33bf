// The graph executor (TVM's tvm.contrib.graph_executor.GraphModule) over relaypass's evaluator:
// inputs set by name or index, run, outputs by index. It runs relay.build's optimized module on
// one eval::Interpreter made once (plan, packed weights), so a run costs the graph's kernels and
// little else.
//
// Its inputs are TVM's: main's parameters, then the graph's parameters ("p0", ...: the constants
// relay.build bound), in the graph JSON's order. Setting a graph parameter replaces that constant
// for the following runs. Every input is checked against the graph's shape and dtype; a run with
// an input never set is an error naming it (TVM would run on uninitialised memory).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "relaypass/backend/build.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/ir/type.h"

namespace relaypass::runtime {

class GraphExecutor {
 public:
  explicit GraphExecutor(backend::BuiltModule built);
  ~GraphExecutor();
  GraphExecutor(const GraphExecutor&) = delete;
  GraphExecutor& operator=(const GraphExecutor&) = delete;

  /// Inputs: main's parameters, then the graph's parameters.
  size_t num_inputs() const;
  /// The index of input `name`, or -1 (TVM's get_input_index).
  int64_t InputIndex(const std::string& name) const;
  const std::string& InputName(size_t index) const;
  /// The declared type of input `index`.
  const ir::TensorTypeNode* InputType(size_t index) const;
  /// Whether input `index` is one of the graph's parameters (p0, ...).
  bool IsParam(size_t index) const;

  /// Sets input `index` (a copy of `value`'s bytes is not made: the array is shared, and the
  /// caller must not change it while it is set). relaypass::Error if the index is out of range
  /// or the shape or dtype differ from the graph's.
  void SetInput(size_t index, const ir::NDArray& value);
  /// The value of input `index` (a graph parameter's current value; an unset input: an empty
  /// NDArray).
  ir::NDArray GetInput(size_t index) const;

  /// Runs the graph on the inputs set; relaypass::Error naming the first input never set.
  void Run();

  size_t num_outputs() const;
  /// Output `index` of the last run; relaypass::Error before a run or out of range.
  ir::NDArray GetOutput(size_t index) const;
  /// The declared type of output `index`.
  const ir::TensorTypeNode* OutputType(size_t index) const;

  const backend::BuiltModule& built() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace relaypass::runtime
