// Built-in workloads: the tutorial's example, synthetic chains, and resnet and mobilenet with TVM's
// exact structure and parameter names (resnet.h, mobilenet.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "relaypass/ir/module.h"

namespace relaypass::workloads {

/// A module and the values of its parameters (by parameter name).
struct Workload {
  ir::IRModule mod;
  std::map<std::string, ir::NDArray> params;
};

/// The tutorial's example(): conv2d plus constant arithmetic on a shared (1, 64, 54, 54) constant.
ir::Function Example();

/// x: (1, 16) float32 through n ops alternating add(y, 1f) (a fresh scalar constant each) and
/// nn.relu; the graph of TVM's deep-chain timings.
ir::Function Chain(int64_t n);

struct WorkloadOptions {
  std::string layout = "NCHW";
  int batch_size = 1;
};

/// A workload by name: "example", "chain-N" (untyped, no params), "resnet-18/34/50/101/152" and
/// "mobilenet" (as TVM's get_workload: typed by InferTypes, params from InitParams with seed 0;
/// the default image shape is (3, 224, 224), or (224, 224, 3) for layout NHWC). Throws
/// relaypass::Error listing the known names for an unknown one or for a bad resnet depth, and
/// for "chain-N" with N over 10,000,000 (before building anything: a chain node takes about
/// 250 bytes, so the longest chain is about 2.5 GB).
Workload GetWorkload(const std::string& name, const WorkloadOptions& options = {});
std::vector<std::string> WorkloadNames();

}  // namespace relaypass::workloads
